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
  },
  { $id: 'AdminUser' },
);

export const EmailAddress = Type.Object({ email: Type.String(), verified: Type.Boolean(), primary: Type.Boolean() }, { $id: 'AdminEmailAddress' });
export const PhoneNumber = Type.Object({ phone: Type.String({ description: 'E.164.' }), verified: Type.Boolean() }, { $id: 'AdminPhoneNumber' });

export const AdminUserDetails = Type.Object(
  {
    ...AdminUser.properties,
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
  },
  { $id: 'AdminSession' },
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

export const adminSchemas: TSchema[] = [AdminUser, EmailAddress, PhoneNumber, AdminUserDetails, AdminSession, AdminError];

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
