import type { AuthenticatorType } from './authenticator.js';

// Security events as the audit table, the CLI and webhooks name them: stable
// dotted names, never renamed once shipped.

export const AUDIT_EVENT_TYPES = [
  'login.succeeded',
  'login.failed',
  'logout',
  'signup',
  'password.changed',
  'password.reset',
  'email.added',
  'email.verified',
  'email.removed',
  'email.primary_changed',
  'phone.changed',
  'phone.verified',
  'authenticator.added',
  'authenticator.removed',
  'recovery_codes.regenerated',
  'session.revoked',
  'refresh_token.reused',
  'account.disabled',
  'account.enabled',
  'account.deleted',
  'social.connected',
  'social.disconnected',
  'reauthenticated',
  'webhook.requeued',
  'username.changed',
  'phone.removed',
  'password.reset_requested',
  'admin.granted',
  'admin.revoked',
  'admin_key.created',
  'admin_key.revoked',
  'admin_key.expiry_changed',
  'idp.consent_granted',
  'idp.consent_denied',
  'idp.token_issued',
  'idp.token_revoked',
  'idp.refresh_token_reused',
  'idp.grants_revoked',
  'idp_client.created',
  'idp_client.secret_rotated',
  'idp_client.deleted',
  'idp_client.keys_replaced',
  'idp_client.updated',
  'idp_initial_access_token.created',
  'idp_initial_access_token.revoked',
  'profile.changed',
  'rate_limit.refused',
  'admin.setup_link_created',
  'admin.setup_link_used',
  'account.invited',
] as const;
export type AuditEventType = (typeof AUDIT_EVENT_TYPES)[number];

/** How the user proved who they are (or tried to). */
export type AuditMethod = 'password' | 'code' | 'password_reset' | 'mfa' | 'social' | 'webauthn' | 'passkey' | 'signup';

/** Why an attempt failed. */
export type AuditFailureReason = 'invalid_password' | 'unknown_user' | 'invalid_code' | 'invalid_credential' | 'rate_limited' | 'inactive' | 'mail_unavailable' | 'sms_unavailable';

/**
 * Why a change happened that the user did not ask for as such: an address
 * replaced under ACCOUNT_CHANGE_EMAIL, a password wiped because a social
 * login took the account over by an address nobody had verified.
 */
export type AuditChangeReason = 'replaced' | 'unverified_email';

/**
 * What an event may say beyond who, when and where. A closed set of fields,
 * none of which can hold a password, code, key or token.
 */
export interface AuditDetail {
  method?: AuditMethod;
  /** The second factor a login passed, besides its first. */
  mfa?: AuthenticatorType;
  /** A social provider's id. */
  provider?: string;
  authenticator?: AuthenticatorType;
  /** A security key's id, as the API and CLI list it. */
  authenticator_id?: number;
  reason?: AuditFailureReason | AuditChangeReason;
  /** Who acted when not the user themselves: `cli` (the admin command line), `admin_api` (a key), `admin_console` (an administrator). */
  actor?: 'cli' | 'admin_api' | 'admin_console' | 'registration';
  /** The admin API key's id (`admin_api`) or the administrator's user id (`admin_console`). */
  actor_id?: number;
  /** An admin API key an event concerns. */
  key_id?: number;
  /** A username an event concerns (the new one of `username.changed`). */
  username?: string;
  /** An address the event concerns, as the user typed or has it. */
  email?: string;
  phone?: string;
  /** What a failed login named the account by (an address, a username or a number), as typed. */
  identifier?: string;
  /** Sessions ended by the event. */
  sessions?: number;
  /** Failed webhook deliveries put back in the queue. */
  deliveries?: number;
  /** The OpenID provider: the client an event concerns, the scopes granted, the grant type or token kind. */
  client_id?: string;
  scopes?: string[];
  grant_type?: string;
  token_type?: string;
  /** The OpenID provider's grants of the user revoked with their tokens (`idp.grants_revoked`). */
  grants?: number;
  /** Dynamic client registration: the initial access token an event made, removed or registered a client with. */
  initial_access_token_id?: number;
  /** The names and profile fields a `profile.changed` set or cleared (never their values: personal data, not security facts). */
  fields?: string[];
  /** `rate_limit.refused`: the rate-limited action (ACCOUNT_RATE_LIMITS' names) and how many requests its rules refused in the minute the event opens. */
  action?: string;
  refusals?: number;
}
