import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import type { Deps } from '../../flows/context.js';
import { refreshSession, refreshTokens } from '../../flows/tokens/token-refresh.js';
import { send } from '../render.js';
import { requestContext } from '../client-auth.js';
import { authResponses, errorRef } from '../schemas.js';

// Token endpoints of spec 4.10, registered for the app client only.

const RefreshBody = Type.Object({ refresh_token: Type.Optional(Type.String({ description: 'The refresh token from meta.refresh_token or an earlier refresh.' })) });

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

export function tokenRoutes(scope: FastifyInstance, deps: Deps): void {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    '/tokens/refresh',
    {
      preValidation: emptyBodyAsObject,
      schema: {
        tags: ['Tokens'],
        summary: 'Refresh the access token',
        description: `A new access token, and the next refresh token when refresh tokens rotate (the presented one then stops working). ${REFRESH_ERRORS}`,
        body: RefreshBody,
        response: { 200: TokenPairResponse, 400: errorRef },
      },
    },
    async (request, reply) => send(deps, request, reply, await refreshTokens(deps, requestContext(request, deps), request.body)),
  );
  app.post(
    '/auth/session',
    {
      preValidation: emptyBodyAsObject,
      schema: {
        tags: ['Tokens'],
        summary: 'Refresh the access token (authentication-state form)',
        description: `The refresh of /tokens/refresh answered as the authentication state: the user, with meta.access_token and, when rotating, meta.refresh_token. ${REFRESH_ERRORS}`,
        body: RefreshBody,
        response: authResponses(),
      },
    },
    async (request, reply) => send(deps, request, reply, await refreshSession(deps, requestContext(request, deps), request.body)),
  );
  const jwks = deps.tokens.jwks?.();
  if (jwks) {
    app.get(
      '/.well-known/jwks.json',
      {
        schema: {
          tags: ['Tokens'],
          summary: 'Public keys of the access tokens',
          description: 'The JWK Set (RFC 7517) resource servers verify access tokens with; `kid` is the RFC 7638 thumbprint the tokens name. A plain JWK Set, not the API envelope. Only with the RS256/RS512 algorithms.',
          response: { 200: JwkSet },
        },
      },
      async () => jwks as Static<typeof JwkSet>,
    );
  }
}
