// Plain data shared by flows and the store: what a session remembers.

import type { AuthenticatorType } from './authenticator.js';

/** Entries of `data.methods`; `at` is Unix time in (fractional) seconds. */
export type AuthMethod =
  | { method: 'password'; at: number; email?: string; username?: string; phone?: string }
  | { method: 'password'; at: number; reauthenticated: true }
  | { method: 'code'; at: number; email?: string; phone?: string }
  | { method: 'password_reset'; at: number; email?: string }
  | { method: 'socialaccount'; at: number; provider: string; uid: string }
  /** A second factor; `passwordless` for a passkey login, `reauthenticated` for a WebAuthn reauthentication. */
  | { method: 'mfa'; at: number; id: number; type: AuthenticatorType; reauthenticated?: true; passwordless?: true };

/**
 * How a login that waits on a stage began: the first factor it proved, or a
 * signup, which proves none (as in the reference: right after signing up,
 * sensitive actions still ask to reauthenticate). A passkey signup goes on
 * to the stage that registers the passkey.
 */
export type LoginStart = AuthMethod | { signup: 'password' | 'passkey' };

/** Verification of an email address, by link or by code. */
export interface VerifyEmailFlow {
  id: 'verify_email';
  /** Null when enumeration prevention answers for an address it must not reveal. */
  userId: number | null;
  emailAddressId: number | null;
  email: string;
  /** SHA-256 of the code when verification is by code. */
  codeHash: string | null;
  /** Milliseconds; the code (not the flow) stops working then. */
  codeExpiresAt: number | null;
  /** The login that completes once the address is verified, if any. */
  login: LoginStart | null;
}

/** Where a one-time code goes: login by code works by email, and by SMS once phone numbers exist. */
export type CodeRecipient = { email: string } | { phone: string };

/** Passwordless login: a code sent to the recipient, valid until `expiresAt`. */
export interface LoginByCodeFlow {
  id: 'login_by_code';
  /** Null for a recipient with no account: the flow looks the same, but no code completes it. */
  userId: number | null;
  recipient: CodeRecipient;
  /** SHA-256 of the code. */
  codeHash: string;
  /** Milliseconds; the flow is dropped then. */
  expiresAt: number;
  /** New codes sent so far (ACCOUNT_LOGIN_BY_CODE_SUPPORTS_RESEND caps it). */
  resends: number;
}

/** Password reset by code (ACCOUNT_PASSWORD_RESET_BY_CODE_ENABLED). */
export interface PasswordResetByCodeFlow {
  id: 'password_reset_by_code';
  userId: number | null;
  /** Where the code went: an address, or (null) the phone number below. */
  email: string | null;
  /** Set when the code went by SMS. */
  phone?: string;
  codeHash: string;
  expiresAt: number;
}

/**
 * Verification of a phone number by SMS code: at signup or login (`login`
 * set: the login completes once verified), or to change the number of a
 * logged-in account (`login` null: the number replaces the account's own).
 */
export interface VerifyPhoneFlow {
  id: 'verify_phone';
  /** Null when enumeration prevention answers for a number it must not reveal. */
  userId: number | null;
  phone: string;
  /** SHA-256 of the code. */
  codeHash: string;
  /** Milliseconds; the flow is dropped then. */
  expiresAt: number;
  login: LoginStart | null;
}

/**
 * A social login whose signup needs more than the provider gave (an address,
 * or a free one): what the provider said, kept until the form completes it.
 */
export interface ProviderSignupFlow {
  id: 'provider_signup';
  /** The public provider id, and the client id of its app (several apps may share an id). */
  provider: string;
  clientId: string;
  uid: string;
  extraData: Record<string, unknown>;
  emails: Array<{ email: string; verified: boolean; primary: boolean }>;
  username: string | null;
  firstName: string | null;
  lastName: string | null;
  /** The provider's tokens, sealed at rest (SOCIALACCOUNT_STORE_TOKENS), else null. */
  tokens: string | null;
}

/**
 * A login that passed its first factor (and any verification stage) and
 * waits for the second. The session stays anonymous meanwhile: the login
 * happens only when a code or key of this user completes this very flow.
 */
export interface MfaAuthenticateFlow {
  id: 'mfa_authenticate';
  userId: number;
  /** The factors proved so far, recorded on the session once the login completes. */
  methods: AuthMethod[];
  /** The user's authenticator types, as the 401 lists them. */
  types: AuthenticatorType[];
  /** Milliseconds (ACCOUNT_LOGIN_TIMEOUT after the first factor). */
  expiresAt: number;
}

/** After the second factor, on a browser with MFA_TRUST_ENABLED: whether to skip it here from now on. */
export interface MfaTrustFlow {
  id: 'mfa_trust';
  userId: number;
  methods: AuthMethod[];
  expiresAt: number;
}

/** A passkey signup waits for its passkey (MFA_PASSKEY_SIGNUP_ENABLED). */
export interface PasskeySignupFlow {
  id: 'mfa_signup_webauthn';
  userId: number;
  methods: AuthMethod[];
  expiresAt: number;
}

export type LoginStageFlow = MfaAuthenticateFlow | MfaTrustFlow | PasskeySignupFlow;

export type PendingFlow = VerifyEmailFlow | LoginByCodeFlow | PasswordResetByCodeFlow | VerifyPhoneFlow | ProviderSignupFlow | LoginStageFlow;
export type PendingFlowId = PendingFlow['id'];

export interface Session {
  id: number;
  userId: number | null;
  methods: AuthMethod[];
  flow: PendingFlow | null;
  flowAttempts: number;
  createdAt: number;
  lastSeenAt: number;
  expiresAt: number;
  ip: string;
  userAgent: string;
}

/**
 * A session's last use and sliding expiry are written at most this often:
 * reads stay reads on the hot path.
 */
export const TOUCH_INTERVAL_MS = 60_000;
