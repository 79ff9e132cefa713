import type { Generated } from 'kysely';

// Times are integer milliseconds since the epoch and flags are 0/1 integers
// on both dialects, so one set of queries and one migration set serve
// SQLite and PostgreSQL alike.

export interface UsersTable {
  id: Generated<number>;
  username: string | null;
  /** Lower-cased copy for case-insensitive uniqueness. */
  username_lower: string | null;
  password_hash: string | null;
  is_active: Generated<number>;
  created_at: number;
  last_login_at: number | null;
  /** Bumped on every password change; one-time keys issued before it die. */
  password_changed_at: number;
}

export interface EmailAddressesTable {
  id: Generated<number>;
  user_id: number;
  email: string;
  email_lower: string;
  verified: number;
  is_primary: number;
  created_at: number;
}

export interface SessionsTable {
  id: Generated<number>;
  /** SHA-256 of the session key; the key itself is never stored. */
  key_hash: string;
  user_id: number | null;
  /** JSON array of authentication methods (data.methods). */
  methods: string;
  /** JSON of the pending flow, if any. */
  flow: string | null;
  /** Wrong answers spent on the pending flow's code. */
  flow_attempts: number;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  ip: string;
  user_agent: string;
}

export interface OneTimeKeysTable {
  id: Generated<number>;
  purpose: string;
  /** SHA-256 of the key. */
  key_hash: string;
  user_id: number;
  email_address_id: number | null;
  email: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface PhoneNumbersTable {
  id: Generated<number>;
  /** One number per account. */
  user_id: number;
  /** E.164, unique across accounts. */
  phone: string;
  verified: number;
  created_at: number;
}

/** Self-service account deletions, kept after the account itself is gone. */
export interface AccountDeletionsTable {
  id: Generated<number>;
  /** The deleted user's id; no foreign key, the row outlives the user. */
  user_id: number;
  deleted_at: number;
  ip: string;
  user_agent: string;
}

/** Refresh tokens of the JWT strategy, by hash; a rotation chain shares a family. */
export interface RefreshTokensTable {
  id: Generated<number>;
  /** SHA-256 of the token; the token itself is never stored. */
  token_hash: string;
  family_id: string;
  session_id: number;
  created_at: number;
  expires_at: number;
  /** Set once, atomically, when the token is rotated away. */
  used_at: number | null;
  successor_id: number | null;
  /** The successor encrypted under this token, for the reuse grace window. */
  successor_sealed: string | null;
}

/** Second factors; see migrations/006_mfa.ts. */
export interface MfaAuthenticatorsTable {
  id: Generated<number>;
  user_id: number;
  type: string;
  /** Sealed TOTP secret or recovery-code seed. */
  secret: string | null;
  used_mask: Generated<number>;
  /** TOTP: last accepted time step; WebAuthn: signature counter. */
  counter: number | null;
  credential_id: string | null;
  /** JSON. */
  data: string;
  created_at: number;
  last_used_at: number | null;
}

/** A ceremony in progress, one per session and purpose. */
export interface MfaChallengesTable {
  id: Generated<number>;
  session_id: number;
  purpose: string;
  user_id: number | null;
  value: string;
  /** JSON. */
  data: string;
  expires_at: number;
}

export interface Database {
  users: UsersTable;
  email_addresses: EmailAddressesTable;
  sessions: SessionsTable;
  one_time_keys: OneTimeKeysTable;
  refresh_tokens: RefreshTokensTable;
  account_deletions: AccountDeletionsTable;
  phone_numbers: PhoneNumbersTable;
  mfa_authenticators: MfaAuthenticatorsTable;
  mfa_challenges: MfaChallengesTable;
}
