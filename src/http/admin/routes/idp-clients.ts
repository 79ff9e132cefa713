import { Type, type Static } from 'typebox';
import * as admin from '../../../flows/admin/idp-clients.js';
import { adminEndpoint, created, ok, refused, type AdminAnswer } from '../endpoint.js';
import { idpClientView } from '../views.js';
import { envelope, responses } from '../schemas.js';
import { COMMON_ERRORS } from './common.js';
import { CLIENT_AUTH_METHODS } from '../../../idp/client-auth-methods.js';

// flows/admin/idp-clients.ts: the OpenID provider's clients (IDP_OIDC_*),
// the CLI's `idp clients` as a resource. A secret is in the answer of the
// create and rotate calls only.

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
    grant_types: Type.Optional(Type.Array(Type.Union(admin.GRANT_TYPES.map((g) => Type.Literal(g))), { maxItems: admin.GRANT_TYPES.length, description: 'authorization_code by default.' })),
    response_types: Type.Optional(Type.Array(Type.Union(admin.RESPONSE_TYPES.map((r) => Type.Literal(r))), { maxItems: 7 })),
    redirect_uris: Type.Optional(Uris),
    post_logout_redirect_uris: Type.Optional(Uris),
    cors_origins: Type.Optional(Uris),
    allow_uri_wildcards: Type.Optional(Type.Boolean()),
    skip_consent: Type.Optional(Type.Boolean()),
    backchannel_logout_uri: Type.Optional(Type.Union([Type.String({ maxLength: 2000 }), Type.Null()])),
    resource_server: Type.Optional(Type.Boolean({ description: "May introspect other clients' tokens (confidential clients only); false by default." })),
    token_endpoint_auth_method: Type.Optional(
      Type.Union(CLIENT_AUTH_METHODS.map((m) => Type.Literal(m)), { description: 'client_secret_basic by default for a confidential client (its secret, sent either way); private_key_jwt: no secret, keys in jwks or jwks_uri; none for a public one.' }),
    ),
    jwks: Type.Optional(Type.Object({ keys: Type.Array(Type.Object({}, { additionalProperties: true }), { maxItems: 10 }) }, { additionalProperties: false, description: 'private_key_jwt: the public JWK Set (RSA, EC P-256 or Ed25519 keys).' })),
    jwks_uri: Type.Optional(Type.String({ maxLength: 2000, description: 'private_key_jwt: an https URL serving the JWK Set instead.' })),
    require_pushed_authorization_requests: Type.Optional(Type.Boolean({ description: 'Authorization requests only through the PAR endpoint (RFC 9126); false by default.' })),
  },
  { additionalProperties: false },
);

// An edit: the registration's fields, each optional (those left out stay); not the id, the type or how it authenticates.
const { id: _id, type: _type, token_endpoint_auth_method: _method, jwks: _jwks, jwks_uri: _uri, ...editable } = CreateBody.properties;
const UpdateBody = Type.Object({ ...editable, name: Type.Optional(editable.name) }, { additionalProperties: false });

const KeysBody = Type.Object(
  {
    jwks: Type.Optional(Type.Object({ keys: Type.Array(Type.Object({}, { additionalProperties: true }), { maxItems: 10 }) }, { additionalProperties: false })),
    jwks_uri: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { additionalProperties: false },
);

const WithSecret = Type.Object({
  status: Type.Integer(),
  data: Type.Ref('AdminIdpClient'),
  meta: Type.Object({ client_secret: Type.Union([Type.String(), Type.Null()], { description: 'Shown only now; null for a public client.' }) }),
});

/** The fields registration and a change share, in the flow's names (backchannel_logout_uri is left to each: null on registration, absent on a change keeps it). */
function editableOf(b: Static<typeof UpdateBody>) {
  return {
    scopes: b.scopes,
    defaultScopes: b.default_scopes,
    grantTypes: b.grant_types,
    responseTypes: b.response_types,
    redirectUris: b.redirect_uris,
    postLogoutRedirectUris: b.post_logout_redirect_uris,
    corsOrigins: b.cors_origins,
    allowUriWildcards: b.allow_uri_wildcards,
    skipConsent: b.skip_consent,
    backchannelLogoutUri: b.backchannel_logout_uri,
    resourceServer: b.resource_server,
    requirePushedAuthorizationRequests: b.require_pushed_authorization_requests,
  };
}

function problem(result: admin.IdpClientProblem): AdminAnswer {
  if (result.reason === 'invalid') return { status: 400, errors: [{ code: 'invalid', param: result.param, message: result.message }] };
  if (result.reason === 'exists') return refused(409, 'client_exists', 'id');
  return refused(404, 'not_found', 'client_id');
}

export const idpClients = [
  adminEndpoint({
    method: 'GET',
    path: '/idp/clients',
    tags,
    summary: 'Registered clients',
    description: `Oldest first; never a secret. ${COMMON_ERRORS}`,
    response: responses({ 200: envelope(Type.Array(Type.Ref('AdminIdpClient'))) }),
    run: async (deps) => ok((await admin.idpClients(deps)).map(idpClientView)),
  }),
  adminEndpoint({
    method: 'GET',
    path: '/idp/clients/:client_id',
    tags,
    summary: 'One client',
    description: `404 \`not_found\`. ${COMMON_ERRORS}`,
    params: ClientParams,
    response: responses({ 200: envelope(Type.Ref('AdminIdpClient')) }),
    run: async (deps, _call, { params }) => {
      const client = await admin.idpClient(deps, params.client_id);
      return client ? ok(idpClientView(client)) : refused(404, 'not_found', 'client_id');
    },
  }),
  adminEndpoint({
    method: 'POST',
    path: '/idp/clients',
    tags,
    summary: 'Register a client',
    description: `The reference's client model, and how the client authenticates; \`meta.client_secret\` is the secret of a confidential client, shown only in this answer (null for public and private_key_jwt clients). Records \`idp_client.created\`. Errors: 400 \`invalid\` (param: the field the client model refuses), 409 \`client_exists\` (param id). ${COMMON_ERRORS}`,
    body: CreateBody,
    response: responses({ 201: WithSecret }),
    run: async (deps, call, { body: b }) => {
      const result = await admin.createIdpClient(deps, call.source(), {
        name: b.name,
        type: b.type,
        id: b.id,
        ...editableOf(b),
        backchannelLogoutUri: b.backchannel_logout_uri ?? null,
        tokenEndpointAuthMethod: b.token_endpoint_auth_method,
        jwks: b.jwks,
        jwksUri: b.jwks_uri,
      });
      return result.ok ? created(idpClientView(result.client), { client_secret: result.secret }) : problem(result);
    },
  }),
  adminEndpoint({
    method: 'PATCH',
    path: '/idp/clients/:client_id',
    tags,
    summary: "Change a client's registration",
    description: `The fields given replace the registered ones (the rest stay), checked as on registration; not its id, its type or how it authenticates (rotate-secret and keys change those). Records \`idp_client.updated\`. Errors: 400 \`invalid\` (param: the field the client model refuses), 404 \`not_found\`. ${COMMON_ERRORS}`,
    params: ClientParams,
    body: UpdateBody,
    response: responses({ 200: envelope(Type.Ref('AdminIdpClient')) }),
    run: async (deps, call, { params, body: b }) => {
      const result = await admin.updateIdpClient(deps, call.source(), params.client_id, {
        name: b.name,
        ...editableOf(b),
      });
      return result.ok ? ok(idpClientView(result.client)) : problem(result);
    },
  }),
  adminEndpoint({
    method: 'POST',
    path: '/idp/clients/:client_id/rotate-secret',
    tags,
    summary: "Replace a client's secret",
    description: `The new secret is in \`meta.client_secret\`, shown only now; the old one stops working at once. Records \`idp_client.secret_rotated\`. Errors: 404 \`not_found\`, 409 \`public_client\` or \`private_key_jwt_client\` (no secret to replace). ${COMMON_ERRORS}`,
    params: ClientParams,
    response: responses({ 200: WithSecret }),
    run: async (deps, call, { params }) => {
      const { client_id: id } = params;
      const result = await admin.rotateIdpClientSecret(deps, call.source(), id);
      if (!result.ok) return result.reason === 'not_found' ? refused(404, 'not_found', 'client_id') : refused(409, result.reason, 'client_id');
      return ok(idpClientView((await admin.idpClient(deps, id))!), { client_secret: result.secret });
    },
  }),
  adminEndpoint({
    method: 'PUT',
    path: '/idp/clients/:client_id/keys',
    tags,
    summary: "Replace a private_key_jwt client's keys",
    description: `The body is the new \`jwks\` or \`jwks_uri\`; assertions signed with a key no longer there stop working at once. Records \`idp_client.keys_replaced\`. Errors: 400 \`invalid\` (param jwks or jwks_uri; also for a client that does not use private_key_jwt), 404 \`not_found\`. ${COMMON_ERRORS}`,
    params: ClientParams,
    body: KeysBody,
    response: responses({ 200: envelope(Type.Ref('AdminIdpClient')) }),
    run: async (deps, call, { params, body }) => {
      const result = await admin.replaceIdpClientKeys(deps, call.source(), params.client_id, { jwks: body.jwks, jwksUri: body.jwks_uri });
      return result.ok ? ok(idpClientView(result.client)) : problem(result);
    },
  }),
  adminEndpoint({
    method: 'DELETE',
    path: '/idp/clients/:client_id',
    tags,
    summary: 'Remove a client',
    description: `Its tokens stop working. Records \`idp_client.deleted\`. 404 \`not_found\`. ${COMMON_ERRORS}`,
    params: ClientParams,
    response: responses({ 200: Type.Object({ status: Type.Integer() }) }),
    run: async (deps, call, { params }) => ((await admin.removeIdpClient(deps, call.source(), params.client_id)) ? { status: 200 } : refused(404, 'not_found', 'client_id')),
  }),
];
