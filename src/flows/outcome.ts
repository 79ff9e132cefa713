import type { Session } from '../domain/session.js';
import type { User } from '../domain/user.js';
import type { EmailAddress } from '../store/email-addresses.js';
import type { SocialApp } from '../social/app.js';
import type { AuthenticatorInfo, AuthenticatorType } from '../domain/authenticator.js';
import type { ConsentView } from '../idp/consent.js';
import type { MessageRef } from '../i18n/message.js';

/** Every error code the API can put in `errors[].code`: one closed list. */
export type ErrorCode =
  | 'required'
  | 'invalid'
  | 'max_length'
  // Custom profile fields (ACCOUNT_PROFILE_SCHEMA), as Django's validators name them.
  | 'min_length'
  | 'max_value'
  | 'min_value'
  | 'invalid_credentials'
  | 'email_password_mismatch'
  | 'username_password_mismatch'
  | 'too_many_login_attempts'
  | 'account_inactive'
  | 'email_taken'
  | 'username_taken'
  | 'username_blacklisted'
  | 'incorrect_password'
  | 'enter_current_password'
  | 'same_as_current'
  | 'incorrect_code'
  | 'invalid_or_expired_key'
  | 'password_too_short'
  | 'password_too_common'
  | 'password_entirely_numeric'
  | 'password_too_similar'
  | 'mail_unavailable'
  | 'phone_password_mismatch'
  | 'phone_taken'
  | 'unknown_phone'
  | 'sms_unavailable'
  | 'invalid_password_reset'
  | 'unknown_email'
  | 'duplicate_email'
  | 'max_email_addresses'
  | 'cannot_remove_primary_email'
  | 'unverified_primary_email'
  | 'invalid_choice'
  | 'invalid_token'
  | 'client_id_required'
  | 'token_authentication_not_supported'
  | 'token_required'
  | 'token_authentication_not_supported'
  | 'account_not_found'
  | 'connected_other'
  | 'no_password'
  | 'no_verified_email'
  | 'disconnect_last'
  | 'service_unavailable'
  | 'unverified_email'
  | 'add_email_blocked'
  | 'cannot_generate_recovery_codes';

export interface FieldError {
  code: ErrorCode;
  /** The request field at fault; absent when the error concerns the whole request. */
  param?: string;
  /** A more specific message than the code's own, often with values (a minimum length); written in the request's language by the http layer. */
  message?: MessageRef;
}

/** The authentication state after a flow, with what changed about the session. */
export interface AuthState {
  session: Session | null;
  user: User | null;
  /** Set when the flow created or cycled the session: the new raw key. */
  newSessionKey?: string;
  /** Set when the flow ended the session (logout). */
  sessionEnded?: boolean;
  /** Tokens the flow already issued (a refresh): rendered in meta instead of new ones. */
  tokens?: { access_token: string; refresh_token?: string };
  /** A browser chose "trust this browser": the new value of its trust cookie. */
  trustBrowser?: string;
  /** A logout of a session from a SAML login: the IdP's single logout URL, for the client to send the browser to. */
  logoutRedirectUrl?: string;
}

/** WebAuthn options for `navigator.credentials`, in the reference's envelope. */
export type WebAuthnOptions = { creation_options: { publicKey: object } } | { request_options: { publicKey: object } };

/**
 * What a flow can answer. The http layer alone turns these into statuses:
 * `auth` renders 200 when authenticated and 401 with flows otherwise.
 */
export type Outcome =
  | ({ kind: 'auth' } & AuthState)
  | { kind: 'ok' }
  | { kind: 'verification_info'; email: string; user: User | null; isAuthenticating: boolean }
  | { kind: 'invalid'; errors: FieldError[] }
  | { kind: 'not_authenticated' }
  /** 401 listing how to reauthenticate: `reauthenticate` with a usable password, `mfa_reauthenticate` with these types. */
  | { kind: 'reauthentication_required'; mfaTypes: AuthenticatorType[] }
  | { kind: 'forbidden' }
  | { kind: 'conflict'; errors?: FieldError[] }
  | { kind: 'not_found' }
  /**
   * A login stage endpoint (second factor, trust) with no such stage pending:
   * 401, `is_authenticated` null. `session` when the flow was dropped just now (expired).
   */
  | { kind: 'stage_not_pending'; session?: Session }
  | { kind: 'authenticators'; authenticators: AuthenticatorInfo[] }
  | { kind: 'authenticator'; authenticator: AuthenticatorInfo; meta?: { recovery_codes_generated: boolean } }
  /** No TOTP yet: a new secret to set it up with (404, as the reference answers). */
  | { kind: 'totp_setup'; secret: string; totpUrl: string; qrCode: string }
  /** `state` when the options needed a new (anonymous) session to hold their challenge. */
  | { kind: 'webauthn_options'; options: WebAuthnOptions; state?: AuthState }
  | { kind: 'rate_limited'; retryAfterSeconds: number }
  | { kind: 'unavailable'; errors: FieldError[] }
  /** POST /tokens/refresh: the new access token, and the next refresh token when rotating. */
  | { kind: 'tokens'; tokens: { access_token: string; refresh_token?: string } }
  /** The account's phone number as a list; `accepted` when a change awaits its code (202). */
  | { kind: 'phone_numbers'; phones: Array<{ phone: string; verified: boolean }>; accepted: boolean }
  | { kind: 'password_reset_info'; user: User }
  | { kind: 'email_addresses'; addresses: EmailAddress[] }
  | { kind: 'session_list'; sessions: Session[]; currentId: number | null }
  /** A browser navigation (social login): 302 to `location`, with the session change the flow made. */
  | { kind: 'redirect'; location: string; auth?: AuthState }
  /** GET /auth/provider/signup: what the provider gave so far. */
  | { kind: 'provider_signup_info'; user: { display: string; username?: string }; account: SocialAccountInfo; emails: Array<{ email: string; primary: boolean; verified: boolean }> }
  | { kind: 'social_accounts'; accounts: SocialAccountInfo[] }
  /** The OpenID provider's consent a SPA shows: the client and scopes waiting on the user. */
  | { kind: 'idp_consent'; consent: ConsentView }
  /** The consent is answered: the browser goes to `location` to finish the authorization. */
  | { kind: 'idp_consent_answered'; location: string }
  /** GET|PATCH /account/profile: the user's names and custom profile fields. */
  | { kind: 'profile'; user: User };

/** A connected (or pending) social account; its wire view is http's (social-views.ts). */
export interface SocialAccountInfo {
  uid: string;
  /** The provider id as stored. */
  provider: string;
  /** Its configured app; null for a provider no longer configured. */
  app: SocialApp | null;
  display: string;
}

export const invalid = (...errors: FieldError[]): Outcome => ({ kind: 'invalid', errors });
export const conflict: Outcome = { kind: 'conflict' };
export const forbidden: Outcome = { kind: 'forbidden' };
export const notAuthenticated: Outcome = { kind: 'not_authenticated' };
export const notFound: Outcome = { kind: 'not_found' };
export const stageNotPending: Outcome = { kind: 'stage_not_pending' };
export const mailUnavailable: Outcome = { kind: 'unavailable', errors: [{ code: 'mail_unavailable' }] };
export const smsUnavailable: Outcome = { kind: 'unavailable', errors: [{ code: 'sms_unavailable' }] };
/** The database or Redis did not answer (store/unavailable.ts): retry shortly. */
export const serviceUnavailable: Outcome = { kind: 'unavailable', errors: [{ code: 'service_unavailable' }] };
