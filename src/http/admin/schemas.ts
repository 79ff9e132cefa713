import { Type, type TSchema } from 'typebox';
import { ErrorItem } from '../schemas.js';

// Response shapes of the admin API, for its OpenAPI document and as
// serializers: a field not named here never reaches the wire.

const Time = Type.Union([Type.String({ format: 'date-time' }), Type.Null()]);

export const AdminUser = Type.Object(
  {
    id: Type.Integer(),
    username: Type.Union([Type.String(), Type.Null()]),
    email: Type.Union([Type.String(), Type.Null()], { description: 'The primary address.' }),
    email_verified: Type.Union([Type.Boolean(), Type.Null()]),
    is_active: Type.Boolean(),
    is_admin: Type.Boolean({ description: 'May sign in to the admin console (set with the CLI).' }),
    has_usable_password: Type.Boolean(),
    password_hasher: Type.String({ description: 'argon2id, or an imported hasher (pbkdf2_sha256, bcrypt_sha256, ...), none or unusable. Never the hash.' }),
    password_current: Type.Boolean({ description: 'false: an imported hash, re-hashed at the next login.' }),
    created_at: Time,
    last_login_at: Time,
    first_name: Type.String({ description: '"" when none.' }),
    last_name: Type.String({ description: '"" when none.' }),
    profile: Type.Object({}, { additionalProperties: Type.Unsafe<string | number | boolean>({ type: ['string', 'number', 'boolean'] }), description: 'The values of the ACCOUNT_PROFILE_SCHEMA fields the user has.' }),
  },
  { $id: 'AdminUser' },
);

export const EmailAddress = Type.Object({ email: Type.String(), verified: Type.Boolean(), primary: Type.Boolean() }, { $id: 'AdminEmailAddress' });
export const PhoneNumber = Type.Object({ phone: Type.String({ description: 'E.164.' }), verified: Type.Boolean() }, { $id: 'AdminPhoneNumber' });

export const AdminUserDetails = Type.Object(
  {
    ...AdminUser.properties,
    language: Type.Union([Type.String(), Type.Null()], { description: 'The language the user last used (their mails are in it); null when no request of theirs named one.' }),
    email_addresses: Type.Array(Type.Ref('AdminEmailAddress')),
    phone: Type.Union([Type.Ref('AdminPhoneNumber'), Type.Null()]),
  },
  { $id: 'AdminUserDetails' },
);

export const AdminSession = Type.Object(
  {
    id: Type.Integer(),
    created_at: Time,
    last_seen_at: Time,
    expires_at: Time,
    ip: Type.String(),
    user_agent: Type.String({ description: 'The device, as its browser or app names itself.' }),
    methods: Type.Array(Type.String(), { description: 'How the session authenticated: password, code, mfa, socialaccount, ...' }),
    current: Type.Optional(Type.Boolean({ description: 'In the console only: true for the session the console itself is signed in with (revoking it signs the administrator out). Absent for API keys.' })),
  },
  { $id: 'AdminSession' },
);

export const AdminAuthenticator = Type.Object(
  {
    id: Type.Integer(),
    type: Type.String({ description: 'totp, recovery_codes or webauthn.' }),
    created_at: Time,
    last_used_at: Time,
    name: Type.Optional(Type.String({ description: 'webauthn: the key\'s name.' })),
    passkey: Type.Optional(Type.Union([Type.Boolean(), Type.Null()], { description: 'webauthn: a passkey (null: the browser did not say).' })),
    recovery_codes: Type.Optional(Type.Object({ total: Type.Integer(), unused: Type.Integer() })),
  },
  { $id: 'AdminAuthenticator' },
);

export const AdminSocialAccount = Type.Object(
  { id: Type.Integer(), provider: Type.String(), provider_name: Type.Union([Type.String(), Type.Null()], { description: 'What people call the provider: the configured app’s name, else its provider type’s; null when neither is known.' }), uid: Type.String(), display: Type.Optional(Type.String({ description: 'What the provider calls the account (its address or login), when it said.' })) },
  { $id: 'AdminSocialAccount' },
);

export const AdminAuditEvent = Type.Object(
  {
    id: Type.Integer(),
    event_id: Type.String(),
    occurred_at: Time,
    type: Type.String(),
    user_id: Type.Union([Type.Integer(), Type.Null()]),
    ip: Type.String(),
    user_agent: Type.String(),
    outcome: Type.String({ description: 'success or failure.' }),
    detail: Type.Object({}, { additionalProperties: true, description: 'method, provider, reason, actor, actor_id, ... never a secret.' }),
  },
  { $id: 'AdminAuditEvent' },
);

export const AdminDelivery = Type.Object(
  {
    id: Type.Integer(),
    event_id: Type.String(),
    event_type: Type.Union([Type.String(), Type.Null()], { description: 'The audit event type sent (see docs/audit-events.md), or backchannel_logout.' }),
    kind: Type.String({ description: 'webhook, or backchannel_logout (an OpenID client told of a logout).' }),
    url: Type.String({ description: 'Its password, if it has one, masked.' }),
    status: Type.String({ description: 'pending, delivered or failed.' }),
    attempts: Type.Integer(),
    next_attempt_at: Time,
    last_error: Type.Union([Type.String(), Type.Null()]),
    created_at: Time,
    finished_at: Time,
  },
  { $id: 'AdminDelivery' },
);

const Strings = Type.Array(Type.String());

export const AdminIdpClient = Type.Object(
  {
    id: Type.String({ description: 'The client_id.' }),
    name: Type.String(),
    type: Type.String({ description: 'confidential (has a secret) or public (PKCE required).' }),
    scopes: Strings,
    default_scopes: Type.Array(Type.String(), { description: 'Granted when a request names no scope.' }),
    grant_types: Strings,
    response_types: Strings,
    redirect_uris: Strings,
    post_logout_redirect_uris: Strings,
    cors_origins: Strings,
    allow_uri_wildcards: Type.Boolean(),
    skip_consent: Type.Boolean(),
    backchannel_logout_uri: Type.Union([Type.String(), Type.Null()]),
    resource_server: Type.Boolean({ description: "May introspect other clients' tokens (RFC 7662)." }),
    require_pushed_authorization_requests: Type.Boolean(),
    created_at: Time,
    token_endpoint_auth_method: Type.String({ description: 'client_secret_basic or client_secret_post (its secret, sent either way), private_key_jwt (no secret: a JWT signed with one of its keys), none (public).' }),
    jwks: Type.Union([Type.Object({ keys: Type.Array(Type.Object({}, { additionalProperties: true })) }), Type.Null()], { description: 'private_key_jwt: its public keys.' }),
    jwks_uri: Type.Union([Type.String(), Type.Null()], { description: 'private_key_jwt: where its public keys are fetched.' }),
  },
  { $id: 'AdminIdpClient' },
);

/** An error: the public API's envelope; the console's reauthentication_required also lists the ways to reauthenticate. */
export const AdminError = Type.Object(
  {
    status: Type.Integer(),
    errors: Type.Array(ErrorItem),
    data: Type.Optional(Type.Object({ flows: Type.Array(Type.Object({ id: Type.String(), types: Type.Optional(Type.Array(Type.String())) })) })),
  },
  { $id: 'AdminError' },
);

export const adminSchemas: TSchema[] = [AdminUser, EmailAddress, PhoneNumber, AdminUserDetails, AdminSession, AdminAuthenticator, AdminSocialAccount, AdminAuditEvent, AdminDelivery, AdminIdpClient, AdminError];

/** `{status, data}` with `data` of the given shape, and `meta.next_cursor` for pages. */
export function envelope(data: TSchema, options: { paged?: boolean } = {}): TSchema {
  return Type.Object({
    status: Type.Integer(),
    data,
    ...(options.paged ? { meta: Type.Object({ next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass back as `cursor` for the next page; null on the last.' }) }) } : {}),
  });
}

/** The answers of a route: its success shape, and the error envelope for the rest. */
export function responses(success: Record<number, TSchema>): Record<string, TSchema> {
  return { ...Object.fromEntries(Object.entries(success)), '4xx': Type.Ref('AdminError'), '5xx': Type.Ref('AdminError') };
}
