import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Deps } from '../../../flows/context.js';
import { createIdpClient, GRANT_TYPES, idpClient, idpClients, removeIdpClient, RESPONSE_TYPES, rotateIdpClientSecret, type IdpClientProblem } from '../../../flows/admin/idp-clients.js';
import { errorBody } from '../../messages.js';
import { refuse } from '../caller.js';
import { idpClientView } from '../views.js';
import { envelope, responses } from '../schemas.js';
import { COMMON_ERRORS, ok, sourceOf } from './common.js';

// The OpenID provider's clients (IDP_OIDC_*): the CLI's `idp clients` as a
// resource. A secret is in the answer of the create and rotate calls only.

const tags = ['OpenID provider clients'];
const ClientParams = Type.Object({ client_id: Type.String({ minLength: 1, maxLength: 200 }) });
const Uris = Type.Array(Type.String({ maxLength: 2000 }), { maxItems: 100 });
const Scopes = Type.Array(Type.String({ maxLength: 200 }), { maxItems: 100 });

const CreateBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    type: Type.Optional(Type.Union([Type.Literal('confidential'), Type.Literal('public')], { description: 'confidential by default.' })),
    id: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'The client_id; a random one by default.' })),
    scopes: Type.Optional(Scopes),
    default_scopes: Type.Optional(Scopes),
    grant_types: Type.Optional(Type.Array(Type.Union(GRANT_TYPES.map((g) => Type.Literal(g))), { maxItems: 4, description: 'authorization_code by default.' })),
    response_types: Type.Optional(Type.Array(Type.Union(RESPONSE_TYPES.map((r) => Type.Literal(r))), { maxItems: 7 })),
    redirect_uris: Type.Optional(Uris),
    post_logout_redirect_uris: Type.Optional(Uris),
    cors_origins: Type.Optional(Uris),
    allow_uri_wildcards: Type.Optional(Type.Boolean()),
    skip_consent: Type.Optional(Type.Boolean()),
    backchannel_logout_uri: Type.Optional(Type.Union([Type.String({ maxLength: 2000 }), Type.Null()])),
  },
  { additionalProperties: false },
);

const WithSecret = Type.Object({
  status: Type.Integer(),
  data: Type.Ref('AdminIdpClient'),
  meta: Type.Object({ client_secret: Type.Union([Type.String(), Type.Null()], { description: 'Shown only now; null for a public client.' }) }),
});

function problem(reply: FastifyReply, result: IdpClientProblem): FastifyReply {
  if (result.reason === 'invalid') return reply.code(400).send(errorBody(400, [{ code: 'invalid', param: result.param, message: result.message }]));
  if (result.reason === 'exists') return refuse(reply, 409, 'client_exists', 'id');
  return refuse(reply, 404, 'not_found', 'client_id');
}

export function idpClientRoutes(scope: FastifyInstance, deps: Deps): void {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/idp/clients',
    {
      schema: { tags, summary: 'Registered clients', description: `Oldest first; never a secret. ${COMMON_ERRORS}`, response: responses({ 200: envelope(Type.Array(Type.Ref('AdminIdpClient'))) }) },
    },
    async (_request, reply) => ok(reply, (await idpClients(deps)).map(idpClientView)),
  );

  app.get(
    '/idp/clients/:client_id',
    {
      schema: { tags, summary: 'One client', description: `404 \`not_found\`. ${COMMON_ERRORS}`, params: ClientParams, response: responses({ 200: envelope(Type.Ref('AdminIdpClient')) }) },
    },
    async (request, reply) => {
      const client = await idpClient(deps, request.params.client_id);
      return client ? ok(reply, idpClientView(client)) : refuse(reply, 404, 'not_found', 'client_id');
    },
  );

  app.post(
    '/idp/clients',
    {
      schema: {
        tags,
        summary: 'Register a client',
        description: `The reference's client model; \`meta.client_secret\` is the secret of a confidential client, shown only in this answer. Records \`idp_client.created\`. Errors: 400 \`invalid\` (param: the field the client model refuses), 409 \`client_exists\` (param id). ${COMMON_ERRORS}`,
        body: CreateBody,
        response: responses({ 201: WithSecret }),
      },
    },
    async (request, reply) => {
      const b = request.body;
      const result = await createIdpClient(deps, sourceOf(deps, request), {
        name: b.name,
        type: b.type,
        id: b.id,
        scopes: b.scopes,
        defaultScopes: b.default_scopes,
        grantTypes: b.grant_types,
        responseTypes: b.response_types,
        redirectUris: b.redirect_uris,
        postLogoutRedirectUris: b.post_logout_redirect_uris,
        corsOrigins: b.cors_origins,
        allowUriWildcards: b.allow_uri_wildcards,
        skipConsent: b.skip_consent,
        backchannelLogoutUri: b.backchannel_logout_uri ?? null,
      });
      if (!result.ok) return problem(reply, result);
      return ok(reply, idpClientView(result.client), { client_secret: result.secret }, 201);
    },
  );

  app.post(
    '/idp/clients/:client_id/rotate-secret',
    {
      schema: {
        tags,
        summary: "Replace a client's secret",
        description: `The new secret is in \`meta.client_secret\`, shown only now; the old one stops working at once. Records \`idp_client.secret_rotated\`. Errors: 404 \`not_found\`, 409 \`public_client\`. ${COMMON_ERRORS}`,
        params: ClientParams,
        response: responses({ 200: WithSecret }),
      },
    },
    async (request, reply) => {
      const { client_id: id } = request.params;
      const result = await rotateIdpClientSecret(deps, sourceOf(deps, request), id);
      if (!result.ok) return result.reason === 'public_client' ? refuse(reply, 409, 'public_client', 'client_id') : refuse(reply, 404, 'not_found', 'client_id');
      return ok(reply, idpClientView((await idpClient(deps, id))!), { client_secret: result.secret });
    },
  );

  app.delete(
    '/idp/clients/:client_id',
    {
      schema: {
        tags,
        summary: 'Remove a client',
        description: `Its tokens stop working. Records \`idp_client.deleted\`. 404 \`not_found\`. ${COMMON_ERRORS}`,
        params: ClientParams,
        response: responses({ 200: Type.Object({ status: Type.Integer() }) }),
      },
    },
    async (request, reply) => {
      if (!(await removeIdpClient(deps, sourceOf(deps, request), request.params.client_id))) return refuse(reply, 404, 'not_found', 'client_id');
      return reply.code(200).send({ status: 200 });
    },
  );
}
