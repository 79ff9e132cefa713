import { Type } from 'typebox';
import * as admin from '../../../flows/admin/idp-initial-access-tokens.js';
import type { InitialAccessTokenRecord } from '../../../store/idp-registration.js';
import { adminEndpoint, created, ok, refused } from '../endpoint.js';
import { envelope, responses } from '../schemas.js';
import { COMMON_ERRORS, Id } from './common.js';

// flows/admin/idp-initial-access-tokens.ts: the tokens that let a client
// register itself (IDP_OIDC_REGISTRATION=initial_access_token), the CLI's
// `idp initial-access-tokens`. The token is in the create call's answer only.

const tags = ['OpenID provider clients'];
const iso = (millis: number | null) => (millis === null ? null : new Date(millis).toISOString());

const TokenView = Type.Object({
  id: Type.Integer(),
  created_at: Type.String({ format: 'date-time' }),
  expires_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'null: until revoked or used up.' }),
  uses_left: Type.Union([Type.Integer(), Type.Null()], { description: 'Registrations it still allows; null: any number.' }),
});

const view = (token: InitialAccessTokenRecord) => ({ id: token.id, created_at: iso(token.createdAt), expires_at: iso(token.expiresAt), uses_left: token.usesLeft });

export const idpInitialAccessTokens = [
  adminEndpoint({
    method: 'GET',
    path: '/idp/initial-access-tokens',
    tags,
    summary: 'Initial access tokens that may still register a client',
    description: `Oldest first; expired and used-up ones are left out; never the token itself. ${COMMON_ERRORS}`,
    response: responses({ 200: envelope(Type.Array(TokenView)) }),
    run: async (deps, call) => ok((await admin.initialAccessTokens(deps, call.source().now)).map(view)),
  }),
  adminEndpoint({
    method: 'POST',
    path: '/idp/initial-access-tokens',
    tags,
    summary: 'Make an initial access token',
    description: `Its bearer may register clients at the registration endpoint (RFC 7591) until it expires or its uses run out. \`meta.token\` is shown only in this answer. Records \`idp_initial_access_token.created\`. Errors: 400 \`invalid\` (param expires_in or uses). ${COMMON_ERRORS}`,
    body: Type.Object(
      {
        expires_in: Type.Optional(Type.Integer({ description: 'Seconds from now, 60 to 31622400; none: no expiry.' })),
        uses: Type.Optional(Type.Integer({ description: 'Registrations it allows; none: any number.' })),
      },
      { additionalProperties: false },
    ),
    response: responses({ 201: Type.Object({ status: Type.Integer(), data: TokenView, meta: Type.Object({ token: Type.String({ description: 'Shown only now.' }) }) }) }),
    run: async (deps, call, { body }) => {
      const result = await admin.createInitialAccessToken(deps, call.source(), { expiresIn: body?.expires_in, uses: body?.uses });
      if (!result.ok) return { status: 400, errors: [{ code: 'invalid', param: result.param, message: result.message }] };
      return created(view(result.record), { token: result.token });
    },
  }),
  adminEndpoint({
    method: 'DELETE',
    path: '/idp/initial-access-tokens/:id',
    tags,
    summary: 'Revoke an initial access token',
    description: `It registers no more clients; those it registered stay. Records \`idp_initial_access_token.revoked\`. 404 \`not_found\`. ${COMMON_ERRORS}`,
    params: Type.Object({ id: Id }),
    response: responses({ 200: Type.Object({ status: Type.Integer() }) }),
    run: async (deps, call, { params }) => ((await admin.revokeInitialAccessToken(deps, call.source(), Number(params.id))) ? { status: 200 } : refused(404, 'not_found', 'id')),
  }),
];
