import type { Config, FrontendUrls } from '../config/config.js';
import type { Templates } from '../templates/engine.js';
import type { Mailer } from './mailer.js';
import { currentSite, renderMail } from './mail-content.js';

// The mails the flows send, addressed and linked from configuration, each in the
// language of the request that caused it.

interface MailDeps {
  config: Config;
  mailer: Mailer;
  templates: Templates;
}

/** A frontend URL from its template, the key as the last path segment. */
export function frontendUrl(urls: FrontendUrls, name: Exclude<keyof FrontendUrls, 'idp_oidc_consent'>, key?: string): string {
  const template = urls[name];
  return key === undefined ? template : template.replace('{key}', encodeURIComponent(key));
}

function send(deps: MailDeps, language: string, to: string, prefix: string, context: Record<string, unknown> = {}): Promise<void> {
  const mail = renderMail(deps.templates, deps.config, prefix, language, { email: to, current_site: currentSite(deps.config), ...context });
  return deps.mailer.send({ to, ...mail });
}

/** `signup`: the address given at signup (email_confirmation_signup), else one added or still unverified. */
export function sendEmailVerification(deps: MailDeps, language: string, email: string, secret: { key: string } | { code: string }, signup = false): Promise<void> {
  const context = 'code' in secret ? { code: secret.code } : { key: secret.key, activate_url: frontendUrl(deps.config.frontendUrls, 'account_confirm_email', secret.key) };
  return send(deps, language, email, signup ? 'account/email/email_confirmation_signup' : 'account/email/email_confirmation', context);
}

export function sendAccountAlreadyExists(deps: MailDeps, language: string, email: string): Promise<void> {
  const { frontendUrls } = deps.config;
  return send(deps, language, email, 'account/email/account_already_exists', {
    password_reset_url: frontendUrl(frontendUrls, 'account_reset_password'),
    signup_url: frontendUrl(frontendUrls, 'account_signup'),
  });
}

/** The account a reset link is for, as templates see it (`user`). */
export type MailUser = { email: string | null; username: string | null };

/** A reset link or code; `byAdmin`: an administrator sent the link, nobody asked for it (the mail says so). */
export function sendPasswordReset(deps: MailDeps, language: string, email: string, secret: { key: string; user: MailUser; byAdmin?: boolean } | { code: string }): Promise<void> {
  if ('code' in secret) return send(deps, language, email, 'account/email/password_reset_code', { code: secret.code });
  const { key, user } = secret;
  return send(deps, language, email, 'account/email/password_reset_key', {
    key,
    requested_by_admin: secret.byAdmin === true,
    password_reset_url: frontendUrl(deps.config.frontendUrls, 'account_reset_password_from_key', key),
    user: { email: user.email ?? email, username: user.username ?? '', display: user.username ?? user.email ?? email },
  });
}

/** Tells an address with no account why the reset link or sign-in code it asked for never comes. */
export function sendUnknownAccount(deps: MailDeps, language: string, email: string): Promise<void> {
  const { frontendUrls, account } = deps.config;
  return send(deps, language, email, 'account/email/unknown_account', account.signupOpen ? { signup_url: frontendUrl(frontendUrls, 'account_signup') } : {});
}

export function sendLoginCode(deps: MailDeps, language: string, email: string, code: string): Promise<void> {
  return send(deps, language, email, 'account/email/login_code', { code });
}

/** The security notices (the reference's send_notification_mail). */
export type Notification =
  | 'account/email/password_changed'
  | 'account/email/password_set'
  | 'account/email/password_reset'
  | 'account/email/email_changed'
  | 'account/email/email_deleted'
  | 'mfa/email/totp_activated'
  | 'mfa/email/totp_deactivated'
  | 'mfa/email/webauthn_added'
  | 'mfa/email/webauthn_removed'
  | 'mfa/email/recovery_codes_generated'
  | 'socialaccount/email/account_connected'
  | 'socialaccount/email/account_disconnected';

/** Who made the change: the request's language, address, browser and time. */
export interface NoticeSource {
  language: string;
  ip: string;
  userAgent: string;
  now: number;
}

/** Left unset, ACCOUNT_EMAIL_NOTIFICATIONS keeps the one notice this server always sent: a password that changed. */
const PASSWORD_NOTICES: ReadonlySet<Notification> = new Set(['account/email/password_changed', 'account/email/password_set', 'account/email/password_reset']);

export function notificationsOn(config: Config, name: Notification): boolean {
  const setting = config.templates.emailNotifications;
  return setting === 'all' || (setting === 'password' && PASSWORD_NOTICES.has(name));
}

/** Resolves at once when ACCOUNT_EMAIL_NOTIFICATIONS leaves this notice off. */
export function sendNotification(deps: MailDeps, source: NoticeSource, name: Notification, email: string, context: Record<string, unknown> = {}): Promise<void> {
  if (!notificationsOn(deps.config, name)) return Promise.resolve();
  return send(deps, source.language, email, name, {
    timestamp: formatTimestamp(source.language, source.now),
    ip: source.ip,
    user_agent: source.userAgent.slice(0, 200) || 'Unspecified',
    ...context,
  });
}

const formats = new Map<string, Intl.DateTimeFormat>();
function formatTimestamp(language: string, now: number): string {
  let format = formats.get(language);
  if (format === undefined) {
    format = new Intl.DateTimeFormat(language, { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });
    formats.set(language, format);
  }
  return `${format.format(now)} UTC`;
}

/** An administrator made an account for the address: the link lets its owner choose a password (a password reset key). */
export function sendInvitation(deps: MailDeps, language: string, email: string, secret: { key: string; user: MailUser }): Promise<void> {
  const { key, user } = secret;
  return send(deps, language, email, 'account/email/invitation', {
    key,
    invitation_url: frontendUrl(deps.config.frontendUrls, 'account_reset_password_from_key', key),
    valid_hours: Math.max(1, Math.floor(deps.config.account.passwordReset.keyTimeout / 3600)),
    user: { email: user.email ?? email, username: user.username ?? '', display: user.username ?? user.email ?? email },
  });
}
