import type { Config, FrontendUrls } from '../config/config.js';
import type { Mailer } from './mailer.js';
import type { MailContent } from './templates/index.js';
import { accountAlreadyExistsMail, emailVerificationMail, passwordChangedMail } from './templates/index.js';
import { loginCodeMail, passwordResetMail, unknownAccountMail } from './templates/index.js';

// The mails the flows send, addressed and linked from configuration.

interface MailDeps {
  config: Config;
  mailer: Mailer;
}

/** A frontend URL from its template, the key as the last path segment. */
export function frontendUrl(urls: FrontendUrls, name: Exclude<keyof FrontendUrls, 'idp_oidc_consent'>, key?: string): string {
  const template = urls[name];
  return key === undefined ? template : template.replace('{key}', encodeURIComponent(key));
}

function send(deps: MailDeps, to: string, mail: MailContent): Promise<void> {
  return deps.mailer.send({ to, ...mail });
}

export function sendEmailVerification(deps: MailDeps, email: string, secret: { key: string } | { code: string }): Promise<void> {
  const { siteName, frontendUrls } = deps.config;
  const mail =
    'code' in secret
      ? emailVerificationMail({ siteName, email, code: secret.code })
      : emailVerificationMail({ siteName, email, url: frontendUrl(frontendUrls, 'account_confirm_email', secret.key) });
  return send(deps, email, mail);
}

export function sendAccountAlreadyExists(deps: MailDeps, email: string): Promise<void> {
  const { siteName, frontendUrls } = deps.config;
  return send(deps, email, accountAlreadyExistsMail({ siteName, email, passwordResetUrl: frontendUrl(frontendUrls, 'account_reset_password') }));
}

export function sendPasswordChanged(deps: MailDeps, email: string): Promise<void> {
  return send(deps, email, passwordChangedMail({ siteName: deps.config.siteName, email }));
}

export function sendPasswordReset(deps: MailDeps, email: string, secret: { key: string } | { code: string }): Promise<void> {
  const { siteName, frontendUrls } = deps.config;
  const mail =
    'code' in secret
      ? passwordResetMail({ siteName, email, code: secret.code })
      : passwordResetMail({ siteName, email, url: frontendUrl(frontendUrls, 'account_reset_password_from_key', secret.key) });
  return send(deps, email, mail);
}

/** Tells an address with no account why the reset link or sign-in code it asked for never comes. */
export function sendUnknownAccount(deps: MailDeps, email: string): Promise<void> {
  const { siteName, frontendUrls, account } = deps.config;
  const signupUrl = account.signupOpen ? frontendUrl(frontendUrls, 'account_signup') : undefined;
  return send(deps, email, unknownAccountMail({ siteName, email, signupUrl }));
}

export function sendLoginCode(deps: MailDeps, email: string, code: string): Promise<void> {
  return send(deps, email, loginCodeMail({ siteName: deps.config.siteName, email, code }));
}
