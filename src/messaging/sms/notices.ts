import type { Config } from '../../config/config.js';
import type { Templates } from '../../templates/engine.js';
import { currentSite } from '../mail-content.js';
import type { SmsSender } from './sender.js';

// The SMS the flows send, from the templates under account/sms/, in the language of the
// request that caused them. A code stands on a line of its own in the default texts, so
// people (and tests) can copy it without picking it out of a sentence.

interface SmsDeps {
  config: Config;
  sms: SmsSender;
  templates: Templates;
}

function send(deps: SmsDeps, language: string, phone: string, name: string, context: Record<string, unknown> = {}): Promise<void> {
  const message = deps.templates.render(`account/sms/${name}.txt`, language, { current_site: currentSite(deps.config), phone, ...context }).trim();
  return deps.sms.send({ to: phone, message });
}

export function sendPhoneVerificationSms(deps: SmsDeps, language: string, phone: string, code: string): Promise<void> {
  return send(deps, language, phone, 'phone_verification', { code });
}

export function sendLoginCodeSms(deps: SmsDeps, language: string, phone: string, code: string): Promise<void> {
  return send(deps, language, phone, 'login_code', { code });
}

export function sendPasswordResetCodeSms(deps: SmsDeps, language: string, phone: string, code: string): Promise<void> {
  return send(deps, language, phone, 'password_reset_code', { code });
}

/** Sent instead of a code when someone tries to claim a number that already has an account. */
export function sendPhoneTakenSms(deps: SmsDeps, language: string, phone: string): Promise<void> {
  return send(deps, language, phone, 'account_already_exists');
}
