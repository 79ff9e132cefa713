import type { Config } from '../../config/config.js';
import type { SmsSender } from './sender.js';
import { loginCodeText, passwordResetCodeText, phoneTakenText, phoneVerificationText } from './texts.js';

// The SMS the flows send, worded from configuration.

interface SmsDeps {
  config: Config;
  sms: SmsSender;
}

export function sendPhoneVerificationSms(deps: SmsDeps, phone: string, code: string): Promise<void> {
  return deps.sms.send({ to: phone, message: phoneVerificationText(deps.config.siteName, code) });
}

export function sendLoginCodeSms(deps: SmsDeps, phone: string, code: string): Promise<void> {
  return deps.sms.send({ to: phone, message: loginCodeText(deps.config.siteName, code) });
}

export function sendPasswordResetCodeSms(deps: SmsDeps, phone: string, code: string): Promise<void> {
  return deps.sms.send({ to: phone, message: passwordResetCodeText(deps.config.siteName, code) });
}

export function sendPhoneTakenSms(deps: SmsDeps, phone: string): Promise<void> {
  return deps.sms.send({ to: phone, message: phoneTakenText(deps.config.siteName) });
}
