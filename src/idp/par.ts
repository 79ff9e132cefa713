// Pushed authorization requests (RFC 9126): a client posts its
// authorization request to /identity/o/api/par, authenticated as at the
// token endpoint, and sends the browser with the `request_uri` it gets
// back (valid 60 seconds, used once). Not required globally; a client
// registered with require_pushed_authorization_requests (client-metadata.ts)
// has its plain authorization requests refused.

export const parFeature = { enabled: true, requirePushedAuthorizationRequests: false, allowUnregisteredRedirectUris: false };

/** oidc-provider leaves the flag out of discovery when it is false; RFC 9126 section 5 lets it be said. */
export const PAR_DISCOVERY = { require_pushed_authorization_requests: false };
