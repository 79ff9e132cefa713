// The reference's paths of the OpenID provider (allauth.idp.oidc), apart from
// the provider itself: the routes that mount it need them whether or not it
// is loaded, and oidc-provider is only loaded when IDP_OIDC_ENABLED is on.

export const IDP_PATHS = {
  authorization: '/identity/o/authorize',
  token: '/identity/o/api/token',
  userinfo: '/identity/o/api/userinfo',
  revocation: '/identity/o/api/revoke',
  introspection: '/identity/o/api/introspect',
  pushed_authorization_request: '/identity/o/api/par',
  device_authorization: '/identity/o/api/device/code',
  code_verification: '/identity/o/device',
  end_session: '/identity/o/logout',
  jwks: '/.well-known/jwks.json',
  interaction: '/identity/o/interaction',
} as const;

/** Every path the provider itself answers (the interaction pages are ours). */
export const PROVIDER_PATHS = ['/.well-known/openid-configuration', ...Object.entries(IDP_PATHS).filter(([name]) => name !== 'interaction').map(([, path]) => path)];

/** Dynamic client registration (RFC 7591; ours, not the provider's): a client's own registration is this path and its client_id (RFC 7592). */
export const REGISTRATION_PATH = '/identity/o/api/register';
