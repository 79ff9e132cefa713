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
  /** 1: may use the admin console (set with `users set-admin`). */
  is_admin: Generated<number>;
  /** The language of the user's last signup, login or change (a LANGUAGES tag); NULL: none seen yet. */
  language: string | null;
  /** Django's auth_user names: '' when none. */
  first_name: Generated<string>;
  last_name: Generated<string>;
  /** JSON object of the ACCOUNT_PROFILE_SCHEMA fields' values. */
  profile: Generated<string>;
}

/** The admin API's search index over users.profile: a row per field whose value is short enough (see migrations/020_user_profile.ts). */
export interface UserProfileValuesTable {
  user_id: number;
  field: string;
  /** The value as text (lower-cased), as profile-values.ts encodes it. */
  value: string;
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
  /** SHA-256 of the session key, 32 raw bytes (sessionKeyDigest); the key itself is never stored. */
  key_hash: Buffer;
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

/** A user's account at a provider: keyed on (provider, uid), the reference's socialaccount_socialaccount. */
export interface SocialAccountsTable {
  id: Generated<number>;
  user_id: number;
  /** The public provider id: an openid_connect app's provider_id, else the provider type. */
  provider: string;
  uid: string;
  /** JSON of what the provider returned at the last login. */
  extra_data: string;
  created_at: number;
  last_login_at: number;
}

/** A social account's provider tokens (SOCIALACCOUNT_STORE_TOKENS), sealed at rest. */
export interface SocialTokensTable {
  id: Generated<number>;
  social_account_id: number;
  token: string;
  token_secret: string | null;
  expires_at: number | null;
  updated_at: number;
}

/** A redirect flow between its start and its callback; deleted when the callback redeems it. */
export interface SocialLoginStatesTable {
  id: Generated<number>;
  state_hash: string;
  binding_hash: string;
  provider: string;
  client_id: string;
  process: string;
  callback_url: string;
  redirect_uri: string;
  code_verifier: string | null;
  nonce: string | null;
  /** Sealed: a secret of the provider's protocol (OAuth 1.0a's request token secret), null when none. */
  secret: string | null;
  user_id: number | null;
  posted_user: string | null;
  created_at: number;
  expires_at: number;
}

/** ID tokens already accepted by the token flow (by issuer and jti), until they expire. */
export interface SocialTokenUsesTable {
  key_hash: string;
  expires_at: number;
}

/** Which row of an imported database (`source`) became which row here. */
export interface ImportRecordsTable {
  id: Generated<number>;
  /** The name the import was given for its source database ("allauth" by default). */
  source: string;
  /** What kind of row: user, email_address, ... (see store/import-records.ts). */
  kind: string;
  /** The row's key in the source (a session's as its SHA-256, never the key itself). */
  source_id: string;
  target_id: number;
  /** What identifies the source row besides its id (a user's date_joined), to catch a different database under the same name. */
  fingerprint: string | null;
  imported_at: number;
}

/** SAML answers posted to an ACS, until the browser's second leg (migration 022). */
export interface SamlAcsPostsTable {
  handle_hash: string;
  organization: string;
  saml_response: string;
  relay_state: string | null;
  expires_at: number;
}

/** The IdP's subject of a session that came from a SAML login (migration 024). */
export interface SamlSessionsTable {
  session_id: number;
  organization: string;
  origin: string;
  name_id: string;
  name_id_format: string | null;
  session_index: string | null;
}

/** Single logouts started through the API, until the IdP answers (migration 024). */
export interface SamlLogoutsTable {
  request_hash: string;
  organization: string;
  expires_at: number;
}

export interface Database {
  users: UsersTable;
  user_profile_values: UserProfileValuesTable;
  email_addresses: EmailAddressesTable;
  sessions: SessionsTable;
  one_time_keys: OneTimeKeysTable;
  refresh_tokens: RefreshTokensTable;
  account_deletions: AccountDeletionsTable;
  phone_numbers: PhoneNumbersTable;
  mfa_authenticators: MfaAuthenticatorsTable;
  mfa_challenges: MfaChallengesTable;
  social_accounts: SocialAccountsTable;
  social_tokens: SocialTokensTable;
  social_login_states: SocialLoginStatesTable;
  social_token_uses: SocialTokenUsesTable;
  saml_acs_posts: SamlAcsPostsTable;
  saml_sessions: SamlSessionsTable;
  saml_logouts: SamlLogoutsTable;
  import_records: ImportRecordsTable;
  audit_events: AuditEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  admin_api_keys: AdminApiKeysTable;
  admin_setup_links: AdminSetupLinksTable;
  idp_clients: IdpClientsTable;
  idp_payloads: IdpPayloadsTable;
  idp_initial_access_tokens: IdpInitialAccessTokensTable;
  idp_client_registrations: IdpClientRegistrationsTable;
}

/** Keys of the admin REST API; see migrations/013_admin.ts. */
export interface AdminApiKeysTable {
  id: Generated<number>;
  name: string;
  scope: string;
  prefix: string;
  /** SHA-256 (hex) of the whole key; the key itself is never stored. */
  key_hash: string;
  created_at: number;
  expires_at: number | null;
  revoked_at: number | null;
  last_used_at: number | null;
}

/** One-time console setup links; see migrations/025_admin_setup_links.ts. */
export interface AdminSetupLinksTable {
  id: Generated<number>;
  user_id: number;
  /** SHA-256 (hex) of the link's secret; the secret itself is never stored. */
  secret_hash: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** Security events; `user_id` is kept after the user is deleted. */
export interface AuditEventsTable {
  id: Generated<number>;
  event_id: string;
  occurred_at: number;
  type: string;
  user_id: number | null;
  ip: string;
  user_agent: string;
  outcome: string;
  /** JSON object: method, provider, reason, actor, ... never a secret. */
  detail: string;
}

/** The webhook outbox: one row per event and target URL. */
export interface WebhookDeliveriesTable {
  id: Generated<number>;
  event_id: string;
  url: string;
  /** The JSON body, as sent. */
  payload: string;
  status: string;
  attempts: number;
  next_attempt_at: number;
  lease_token: string | null;
  last_error: string | null;
  created_at: number;
  finished_at: number | null;
  /** `webhook` (a signed JSON event) or `backchannel_logout` (an OpenID logout token for a client). */
  kind: Generated<string>;
}

/** OpenID provider clients, as the reference's allauth_idp_oidc_client; lists are JSON arrays. */
export interface IdpClientsTable {
  id: string;
  name: string;
  secret_hash: string | null;
  type: string;
  scopes: string;
  default_scopes: string;
  grant_types: string;
  response_types: string;
  redirect_uris: string;
  post_logout_redirect_uris: Generated<string>;
  cors_origins: string;
  allow_uri_wildcards: Generated<number>;
  skip_consent: Generated<number>;
  backchannel_logout_uri: string | null;
  resource_server: Generated<number>;
  owner_id: number | null;
  created_at: number;
  /** See migrations/016_idp_client_keys.ts. */
  token_endpoint_auth_method: Generated<string>;
  jwks: string | null;
  jwks_uri: string | null;
  require_pushed_authorization_requests: Generated<number>;
}

/** What oidc-provider persists, by model and id (SHA-256 of the id for bearer secrets). */
export interface IdpPayloadsTable {
  model: string;
  id: string;
  payload: string;
  grant_id: string | null;
  user_code: string | null;
  uid: string | null;
  account_id: string | null;
  issuer: string | null;
  expires_at: number | null;
  consumed_at: number | null;
}

/** Initial access tokens of dynamic client registration; see migrations/017_idp_registration.ts. */
export interface IdpInitialAccessTokensTable {
  id: Generated<number>;
  /** SHA-256 (hex) of the token. */
  token_hash: string;
  created_at: number;
  expires_at: number | null;
  uses_left: number | null;
}

/** A dynamically registered client's registration (RFC 7592 management). */
export interface IdpClientRegistrationsTable {
  client_id: string;
  /** SHA-256 (hex) of the registration access token. */
  access_token_hash: string;
  initial_access_token_id: number | null;
  /** JSON object of the RFC 7591 metadata our client model has no column for. */
  metadata: string;
  created_at: number;
}
