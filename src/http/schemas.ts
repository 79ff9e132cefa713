import { Type, type TSchema } from 'typebox';
import type { Config } from '../config/config.js';
import type { ProfileSettings } from '../config/profile.js';

// Wire shapes shared by the routes. Response schemas double as serializers:
// a property not named here never reaches the client.

export const ErrorItem = Type.Object({
  code: Type.String({ description: 'Stable machine-readable error code.' }),
  message: Type.String({ description: 'Human-readable explanation.' }),
  param: Type.Optional(Type.String({ description: 'The request field at fault, when there is one.' })),
});

export const ErrorResponse = Type.Object(
  { status: Type.Integer(), errors: Type.Array(ErrorItem) },
  { $id: 'ErrorResponse', description: 'An error; `errors` lists each problem.' },
);

export const StatusResponse = Type.Object(
  { status: Type.Integer(), errors: Type.Optional(Type.Array(ErrorItem)) },
  { $id: 'StatusResponse', description: 'A status, with errors when the server can say more (e.g. a CSRF failure).' },
);

const USER_PROPERTIES = {
  id: Type.Integer(),
  display: Type.String(),
  email: Type.Optional(Type.String()),
  username: Type.Optional(Type.String()),
  has_usable_password: Type.Boolean(),
};

const FIELD_TYPES = { string: Type.String, integer: Type.Integer, number: Type.Number, boolean: Type.Boolean };

/**
 * The user object: the reference's, plus the names and fields
 * HEADLESS_USER_FIELDS lists, each typed as declared. Built from the
 * settings, so that the serializer of the hot routes knows each property
 * (no loop over unknown keys) and the OpenAPI document shows the real ones.
 */
function userSchema(profile: ProfileSettings): TSchema {
  const extra = Object.fromEntries(
    profile.userFields.map((name) => {
      const declared = profile.fields.find((f) => f.name === name);
      const description = `Not part of the django-allauth API: listed in HEADLESS_USER_FIELDS.${declared?.description ? ` ${declared.description}` : ''}`;
      return [name, Type.Optional(FIELD_TYPES[declared?.type ?? 'string']({ description }))];
    }),
  );
  return Type.Object({ ...USER_PROPERTIES, ...extra }, { $id: 'User' });
}

export const AuthMethod = Type.Object(
  {
    method: Type.String({ description: 'password, password_reset, code, mfa or socialaccount.' }),
    at: Type.Number({ description: 'Unix time in seconds.' }),
    email: Type.Optional(Type.String()),
    username: Type.Optional(Type.String()),
    phone: Type.Optional(Type.String()),
    reauthenticated: Type.Optional(Type.Boolean()),
    provider: Type.Optional(Type.String({ description: 'socialaccount: the provider id.' })),
    uid: Type.Optional(Type.String({ description: 'socialaccount: the account\'s id at the provider.' })),
    id: Type.Optional(Type.Integer({ description: 'mfa: the authenticator used.' })),
    type: Type.Optional(Type.String({ description: 'mfa: totp, recovery_codes or webauthn.' })),
    passwordless: Type.Optional(Type.Boolean({ description: 'mfa: a passkey login.' })),
  },
  { $id: 'AuthMethod' },
);

export const Provider = Type.Object(
  {
    id: Type.String({ description: 'The provider id: an openid_connect app\'s provider_id, else the provider type (google, github, ...).' }),
    name: Type.String(),
    flows: Type.Array(Type.String(), { description: 'provider_redirect and/or provider_token.' }),
    client_id: Type.Optional(Type.String()),
    openid_configuration_url: Type.Optional(Type.String({ description: 'openid_connect apps: the discovery document.' })),
  },
  { $id: 'Provider' },
);

export const Flow = Type.Object(
  {
    id: Type.String(),
    is_pending: Type.Optional(Type.Boolean()),
    providers: Type.Optional(Type.Array(Type.String())),
    provider: Type.Optional(Type.Ref('Provider', { description: 'provider_signup: the provider of the pending signup.' })),
    types: Type.Optional(Type.Array(Type.String())),
  },
  { $id: 'Flow' },
);

export const AuthMeta = Type.Object({
  // A type list rather than anyOf: the serializer then needs no validation pass.
  is_authenticated: Type.Unsafe<boolean | null>({ type: ['boolean', 'null'], description: 'null only on 410: the session token is gone.' }),
  session_token: Type.Optional(Type.String({ description: 'App clients: the new session token, when it changed.' })),
  access_token: Type.Optional(Type.String({ description: 'App clients under the JWT strategy: on authentication and on refresh.' })),
  refresh_token: Type.Optional(Type.String({ description: 'App clients under the JWT strategy: with access_token, when refresh tokens rotate or are new.' })),
  expires_in: Type.Optional(Type.Integer({ description: 'Only when a custom token strategy adds it to its access-token payload.' })),
  logout_redirect_url: Type.Optional(
    Type.String({ description: 'Logout (DELETE) of a session from a SAML login whose IdP has an SLO URL: send the browser here to end the IdP\'s session too (not part of django-allauth; see docs/social-login.md).' }),
  ),
});

export const AuthResponse = Type.Object(
  {
    status: Type.Integer(),
    data: Type.Object({
      user: Type.Optional(Type.Ref('User')),
      methods: Type.Optional(Type.Array(Type.Ref('AuthMethod'))),
      flows: Type.Optional(Type.Array(Type.Ref('Flow'))),
    }),
    meta: AuthMeta,
  },
  {
    $id: 'AuthResponse',
    description: 'The authentication state: 200 with the user when authenticated; 401 with the flows to continue otherwise; 410 when an app session token is no longer valid.',
  },
);

/** The schemas the routes refer to by id; the user object's follows the settings. */
export function sharedSchemas(config: Config): TSchema[] {
  return [ErrorResponse, StatusResponse, userSchema(config.profile), AuthMethod, Provider, Flow, AuthResponse];
}

const ref = (id: string) => Type.Ref(id);

/** Response map for endpoints answering with the authentication state. */
export function authResponses(extra: Record<number, TSchema> = {}): Record<number, TSchema> {
  return {
    200: ref('AuthResponse'),
    400: ref('ErrorResponse'),
    401: ref('AuthResponse'),
    403: ref('StatusResponse'),
    409: ref('StatusResponse'),
    410: ref('AuthResponse'),
    429: ref('StatusResponse'),
    ...extra,
  };
}

export const errorRef = ref('ErrorResponse');
export const statusRef = ref('StatusResponse');
export const authRef = ref('AuthResponse');
