// A custom HEADLESS_TOKEN_STRATEGY module (spec 5.3), loaded by path:
//
//   HEADLESS_TOKEN_STRATEGY=./examples/custom-token-strategy.mjs
//   HEADLESS_JWT_PRIVATE_KEY="$(cat jwt-private-key.pem)"
//
// Session tokens carry an "st_" prefix (so they are easy to spot in logs and
// secret scanners), and the built-in JWTs gain two claims. The default export
// receives the strategy context and returns the five operations; the optional
// `authenticate` and `jwks` let Authorization headers work and publish keys.

/** @param {import('../src/tokens/strategy.js').StrategyContext} ctx */
export default function createTokenStrategy(ctx) {
  const jwt = ctx.builtins.jwt({
    // Reserved claims (iat, exp, sid, jti, token_use, sub) cannot be overridden:
    // this `sub` is dropped and the user's id is used.
    claims: ({ user }) => ({ email: user.email, roles: ['member'], sub: 'ignored' }),
  });
  const PREFIX = 'st_';
  return {
    // 1. The session token an app receives for a session key.
    createSessionToken: ({ sessionKey }) => PREFIX + sessionKey,
    // 2. The live session a session token names, or null (the app then gets 410).
    lookupSession: async (token) => (token.startsWith(PREFIX) ? ctx.findSession(token.slice(PREFIX.length)) : null),
    // 3. An access token for an authenticated session (optional).
    createAccessToken: (subject) => jwt.createAccessToken(subject),
    // 4. What goes in meta on authentication: access_token plus extras.
    createAccessTokenPayload: (subject) => jwt.createAccessTokenPayload(subject),
    // 5. A new pair for a refresh token, or null.
    refreshToken: (token) => jwt.refreshToken(token),
    // Optional: accept `Authorization: Bearer <access token>` and publish the public keys.
    authenticate: (token) => jwt.authenticate(token),
    jwks: () => jwt.jwks(),
  };
}
