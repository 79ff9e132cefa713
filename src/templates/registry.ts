// Every template the server renders: its name, what it is for, the variables it gets,
// and sample values for them. The samples are what the start renders each template
// with (so an override that prints an unknown variable stops the start), what
// `headless-auth templates preview` shows, and what docs/templates.md lists.

export type TemplateKind = 'mail' | 'sms' | 'page';

export interface TemplateInfo {
  /** A mail's prefix (`account/email/login_code`: `_subject.txt`, `_message.txt`, `_message.html`), or an SMS's or page's file. */
  name: string;
  kind: TemplateKind;
  about: string;
  /** The variables beyond those every template of its kind gets. */
  variables: Record<string, string>;
  /** One context per case the template must handle (a code or a link, say). */
  samples: Record<string, unknown>[];
}

export const MAIL_PARTS = ['_subject.txt', '_message.txt', '_message.html'] as const;

/** The files a template's name stands for. */
export function filesOf(info: TemplateInfo): string[] {
  return info.kind === 'mail' ? MAIL_PARTS.map((part) => info.name + part) : [info.name];
}

const site = { name: 'Example', domain: 'example.com' };
const email = 'ada@example.com';
/** What every mail gets. */
export const MAIL_VARIABLES = {
  email: 'the recipient address',
  current_site: '`.name` (SITE_NAME) and `.domain` (the host of FRONTEND_URL)',
  language: 'the language the mail is written in (`de`)',
};
/** What every notification gets on top. */
export const NOTIFICATION_VARIABLES = {
  timestamp: 'when the change was made, written for the language (UTC)',
  ip: 'the address the request came from',
  user_agent: 'the browser that made the request (at most 200 characters)',
};
const mailBase = { email, current_site: site };
const notificationBase = { ...mailBase, timestamp: '2 December 2026 at 09:30 UTC', ip: '203.0.113.7', user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0' };
const code = 'K7QX-94DM';
const key = 'MQ-cbx9a1-4b1f0e2c9d7a';
const confirmation = {
  variables: { code: 'the code to enter, when ACCOUNT_EMAIL_VERIFICATION_BY_CODE_ENABLED (else absent)', key: 'the key of the link (else absent)', activate_url: 'the link that confirms the address (HEADLESS_FRONTEND_URLS.account_confirm_email; absent with codes)' },
  samples: [{ ...mailBase, code }, { ...mailBase, key, activate_url: `https://app.example.com/account/verify-email/${key}` }],
};
const notification = (name: string, about: string, variables: Record<string, string> = {}, extra: Record<string, unknown> = {}): TemplateInfo => ({
  name,
  kind: 'mail',
  about: `${about} (a notification: sent when ACCOUNT_EMAIL_NOTIFICATIONS is on)`,
  variables,
  samples: [{ ...notificationBase, ...extra }],
});
const social = { provider: 'the provider: `.id` and `.name`', account: 'the provider account: `.uid` and `.provider` (its id)' };
const socialSample = { provider: { id: 'google', name: 'Google' }, account: { uid: '1093846208', provider: 'google' } };

export const MAILS: TemplateInfo[] = [
  { name: 'account/email/email_confirmation', kind: 'mail', about: 'confirms an address added, changed or not yet verified', ...confirmation },
  { name: 'account/email/email_confirmation_signup', kind: 'mail', about: 'confirms the address given at signup', ...confirmation },
  {
    name: 'account/email/password_reset_key',
    kind: 'mail',
    about: 'a password reset link (reset by code off), asked for by the user or sent by an administrator (console or admin API)',
    variables: {
      password_reset_url: 'the link (HEADLESS_FRONTEND_URLS.account_reset_password_from_key)',
      key: 'the key in the link',
      user: 'the account: `.email`, `.username` (may be empty), `.display`',
      requested_by_admin: 'true when an administrator sent it (nobody asked: the stock template says so instead of "someone asked"), else false',
    },
    samples: [
      { ...mailBase, key, password_reset_url: `https://app.example.com/account/password/reset/key/${key}`, user: { email, username: 'ada', display: 'ada' }, requested_by_admin: false },
      { ...mailBase, key, password_reset_url: `https://app.example.com/account/password/reset/key/${key}`, user: { email, username: 'ada', display: 'ada' }, requested_by_admin: true },
    ],
  },
  { name: 'account/email/password_reset_code', kind: 'mail', about: 'a password reset code (ACCOUNT_PASSWORD_RESET_BY_CODE_ENABLED)', variables: { code: 'the code' }, samples: [{ ...mailBase, code }] },
  { name: 'account/email/login_code', kind: 'mail', about: 'a sign-in code (ACCOUNT_LOGIN_BY_CODE_ENABLED)', variables: { code: 'the code' }, samples: [{ ...mailBase, code }] },
  {
    name: 'account/email/unknown_account',
    kind: 'mail',
    about: 'a reset or sign-in code was asked for an address with no account (ACCOUNT_PREVENT_ENUMERATION)',
    variables: { signup_url: 'the signup page (HEADLESS_FRONTEND_URLS.account_signup), absent when ACCOUNT_SIGNUP_OPEN is off' },
    samples: [{ ...mailBase, signup_url: 'https://app.example.com/account/signup' }, mailBase],
  },
  {
    name: 'account/email/account_already_exists',
    kind: 'mail',
    about: 'someone signed up (or added an address) with an address that has an account (ACCOUNT_PREVENT_ENUMERATION)',
    variables: { password_reset_url: 'the password reset page (HEADLESS_FRONTEND_URLS.account_reset_password)', signup_url: 'the signup page' },
    samples: [{ ...mailBase, password_reset_url: 'https://app.example.com/account/password/reset', signup_url: 'https://app.example.com/account/signup' }],
  },
  {
    name: 'account/email/invitation',
    kind: 'mail',
    about: 'an administrator made an account (admin API or console, `invite`): a link to choose a password (a password reset key)',
    variables: {
      invitation_url: 'the link (HEADLESS_FRONTEND_URLS.account_reset_password_from_key)',
      key: 'the key in the link',
      valid_hours: 'how long the link works (PASSWORD_RESET_TIMEOUT), in whole hours',
      user: 'the account: `.email`, `.username` (may be empty), `.display`',
    },
    samples: [{ ...mailBase, key, invitation_url: `https://app.example.com/account/password/reset/key/${key}`, valid_hours: 72, user: { email, username: '', display: email } }],
  },
  notification('account/email/password_changed', 'the password was changed'),
  notification('account/email/password_set', 'a password was set on an account that had none'),
  notification('account/email/password_reset', 'the password was reset by link or code'),
  notification('account/email/email_changed', 'the primary address changed; sent to the old one', { from_email: 'the old primary address', to_email: 'the new one' }, { from_email: email, to_email: 'ada.lovelace@example.org' }),
  notification('account/email/email_deleted', 'an address was removed', { deleted_email: 'the address removed' }, { deleted_email: 'ada@old.example.net' }),
  notification('mfa/email/totp_activated', 'an authenticator app was set up'),
  notification('mfa/email/totp_deactivated', 'the authenticator app was removed'),
  notification('mfa/email/webauthn_added', 'a security key or passkey was added'),
  notification('mfa/email/webauthn_removed', 'a security key or passkey was removed'),
  notification('mfa/email/recovery_codes_generated', 'new recovery codes were made (the old ones stop working)'),
  notification('socialaccount/email/account_connected', 'a provider account was connected', social, socialSample),
  notification('socialaccount/email/account_disconnected', 'a provider account was disconnected', social, socialSample),
];

/** What every SMS gets. */
export const SMS_VARIABLES = { current_site: '`.name` and `.domain`', phone: 'the recipient number (E.164)', language: 'the language' };
const smsBase = { current_site: site, phone: '+4915112345678' };

export const SMS: TemplateInfo[] = [
  { name: 'account/sms/phone_verification.txt', kind: 'sms', about: 'a code that verifies a phone number', variables: { code: 'the code' }, samples: [{ ...smsBase, code: '492817' }] },
  { name: 'account/sms/login_code.txt', kind: 'sms', about: 'a sign-in code by SMS', variables: { code: 'the code' }, samples: [{ ...smsBase, code: '492817' }] },
  { name: 'account/sms/password_reset_code.txt', kind: 'sms', about: 'a password reset code by SMS', variables: { code: 'the code' }, samples: [{ ...smsBase, code: '492817' }] },
  { name: 'account/sms/account_already_exists.txt', kind: 'sms', about: 'someone tried to claim a number that has an account (instead of a code)', variables: {}, samples: [smsBase] },
];

/** What every page gets. */
export const PAGE_VARIABLES = { current_site: '`.name` and `.domain`', language: 'the language', page_style: 'the inline stylesheet, allowed by its hash', stylesheet_url: 'BRANDING_STYLESHEET_URL or absent' };
const pageBase = { current_site: site };
const form = '<form id="op.form" method="post" action="/identity/o/device"><input type="hidden" name="xsrf" value="sample"></form>';
const client = { name: 'Example TV', id: 'tv-app' };

export const PAGES: TemplateInfo[] = [
  {
    name: 'idp/oidc/authorization_form.html',
    kind: 'page',
    about: 'consent: an application asks for access (when it does not skip consent and no HEADLESS_FRONTEND_URLS.idp_oidc_consent)',
    variables: { client: '`.name` and `.id`', scopes: 'a list of `{ name, description }`', action: 'where the form posts', csrf: 'the form token' },
    samples: [{ ...pageBase, client, scopes: [{ name: 'openid', description: 'Know who you are' }, { name: 'email', description: 'View your email address' }], action: '/identity/o/interaction/abc/consent', csrf: 'sample' }],
  },
  {
    name: 'idp/oidc/device_authorization_code_form.html',
    kind: 'page',
    about: 'device flow: enter the code the device shows',
    variables: { form: "the provider's form, markup (printed with the safe filter)", error: '`invalid_code`, `failed` or empty' },
    samples: [{ ...pageBase, form, error: '' }, { ...pageBase, form, error: 'invalid_code' }, { ...pageBase, form, error: 'failed' }],
  },
  {
    name: 'idp/oidc/device_authorization_confirm_form.html',
    kind: 'page',
    about: 'device flow: confirm the device',
    variables: { client: '`.name` and `.id`', user_code: 'the code', form: "the provider's form, markup (safe filter)" },
    samples: [{ ...pageBase, client, user_code: 'BCDF-GHJK', form }],
  },
  { name: 'idp/oidc/device_authorization_confirmed.html', kind: 'page', about: 'device flow: the device is connected', variables: {}, samples: [pageBase] },
  { name: 'idp/oidc/logout.html', kind: 'page', about: 'RP-initiated logout: sign out here too?', variables: { form: "the provider's form, markup (safe filter)" }, samples: [{ ...pageBase, form }] },
  { name: 'idp/oidc/logout_success.html', kind: 'page', about: 'RP-initiated logout: signed out', variables: {}, samples: [pageBase] },
  {
    name: 'idp/oidc/logout_redirect.html',
    kind: 'page',
    about: 'RP-initiated logout without asking: a form that submits itself',
    variables: { action: 'where it posts', fields: 'a list of `{ name, value }`', script: 'the one script allowed, by its hash (safe filter)' },
    samples: [{ ...pageBase, action: '/identity/o/logout/confirm', fields: [{ name: 'logout', value: 'yes' }], script: '' }],
  },
  {
    name: 'idp/oidc/error.html',
    kind: 'page',
    about: 'an error of the provider or of a sign-in',
    variables: { error: '`expired`, `failed`, `unsupported`, `form`, `rate_limited` or `oauth`', description: "with `oauth`: the provider's description (English, from OAuth)" },
    samples: ['expired', 'failed', 'unsupported', 'form', 'rate_limited'].map((error) => ({ ...pageBase, error, description: '' })).concat([{ ...pageBase, error: 'oauth', description: 'invalid redirect_uri' }]),
  },
  {
    name: 'socialaccount/relay.html',
    kind: 'page',
    about: 'social login by a provider that answers in the URL fragment (Telegram): the moment its script posts the answer back',
    variables: { relay_script: 'the one script allowed, by its hash (safe filter); keep it' },
    samples: [{ ...pageBase, relay_script: '' }],
  },
  {
    name: 'socialaccount/saml_post.html',
    kind: 'page',
    about: 'SAML login at an identity provider that takes the AuthnRequest by HTTP-POST: a form that submits itself',
    variables: { action: "the IdP's SSO URL", fields: 'a list of `{ name, value }` (SAMLRequest)', script: 'the one script allowed, by its hash (safe filter); keep it' },
    samples: [{ ...pageBase, action: 'https://idp.example/sso', fields: [{ name: 'SAMLRequest', value: 'PHNhbWxwOkF1dGhuUmVxdWVzdC8+' }], script: '' }],
  },
];

export const ALL_TEMPLATES: TemplateInfo[] = [...MAILS, ...SMS, ...PAGES];

/** The template a name given by a person stands for (`templates preview`). */
export function templateInfo(name: string): TemplateInfo | undefined {
  const bare = name.replace(/(_subject\.txt|_message\.txt|_message\.html)$/, '');
  // An SMS or page may be named without its extension, a mail by any of its files.
  return ALL_TEMPLATES.find((info) => [name, bare, `${name}.txt`, `${name}.html`].includes(info.name));
}
