import type { FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { refreshSession, refreshTokens, RefreshInput } from '../../../flows/tokens/token-refresh.js';
import { customEndpoint, endpoint, only } from '../../endpoint.js';
import { authResponses, errorRef } from '../../schemas.js';

// flows/tokens: the token endpoints of spec 4.10, for the app client only.

const TokenPairResponse = Type.Object({
  status: Type.Integer(),
  data: Type.Object({
    access_token: Type.String(),
    refresh_token: Type.Optional(Type.String({ description: 'Only when refresh tokens rotate (HEADLESS_JWT_ROTATE_REFRESH_TOKEN).' })),
  }),
});

// RSA members are named; other members pass through, for a custom strategy's keys.
const JwkSet = Type.Object({
  keys: Type.Array(
    Type.Object(
      {
        kty: Type.String(),
        kid: Type.Optional(Type.String()),
        alg: Type.Optional(Type.String()),
        use: Type.Optional(Type.String()),
        n: Type.Optional(Type.String()),
        e: Type.Optional(Type.String()),
      },
      { additionalProperties: true },
    ),
  ),
});

const REFRESH_ERRORS =
  'Errors (400): `required` (param refresh_token); `invalid_token` (param refresh_token) for an invalid, expired, already rotated, post-logout or access token. Presenting a rotated refresh token again revokes its whole token family and session, unless it comes within HEADLESS_JWT_REFRESH_TOKEN_REUSE_GRACE, which answers with the same successor.';

// A bodiless refresh is a missing refresh_token (400 `required`), as the reference answers it.
const emptyBodyAsObject = async (request: FastifyRequest) => {
  if (request.body === undefined || request.body === null) request.body = {};
};

export const tokens = only((_deps, client) => client === 'app', [
  endpoint({
    method: 'POST',
    path: '/tokens/refresh',
    tags: ['Tokens'],
    summary: 'Refresh the access token',
    description: `A new access token, and the next refresh token when refresh tokens rotate (the presented one then stops working). ${REFRESH_ERRORS}`,
    body: RefreshInput,
    response: { 200: TokenPairResponse, 400: errorRef },
    counts: { kind: 'refresh' },
    preValidation: emptyBodyAsObject,
    run: (deps, ctx, { body }) => refreshTokens(deps, ctx, body),
  }),
  // The refresh in authentication-state form.
  endpoint({
    method: 'POST',
    path: '/auth/session',
    tags: ['Tokens'],
    summary: 'Refresh the access token (authentication-state form)',
    description: `The refresh of /tokens/refresh answered as the authentication state: the user, with meta.access_token and, when rotating, meta.refresh_token. ${REFRESH_ERRORS}`,
    body: RefreshInput,
    response: authResponses(),
    counts: { kind: 'refresh' },
    preValidation: emptyBodyAsObject,
    run: (deps, ctx, { body }) => refreshSession(deps, ctx, body),
  }),
  customEndpoint({
    method: 'GET',
    path: '/.well-known/jwks.json',
    tags: ['Tokens'],
    summary: 'Public keys of the access tokens',
    description: 'The JWK Set (RFC 7517) resource servers verify access tokens with; `kid` is the RFC 7638 thumbprint the tokens name. A plain JWK Set, not the API envelope. Only with the RS256/RS512 algorithms.',
    response: { 200: JwkSet },
    // Only when the token strategy has public keys (JWT with RS256/RS512, or a custom strategy's).
    handler: (deps) => {
      const jwks = deps.tokens.jwks?.();
      return jwks ? async () => jwks as Static<typeof JwkSet> : null;
    },
  }),
]);
