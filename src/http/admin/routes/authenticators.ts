import { Type } from 'typebox';
import { authenticatorsOf, removeAuthenticator } from '../../../flows/admin/authenticators.js';
import { ok, refused, userEndpoint } from '../endpoint.js';
import { authenticatorView } from '../views.js';
import { envelope, responses } from '../schemas.js';
import { COMMON_ERRORS, Id, UserParams } from './common.js';

// flows/admin/authenticators.ts: a user's second factors, and removing one.

const tags = ['MFA authenticators'];

export const authenticators = [
  userEndpoint({
    method: 'GET',
    path: '/users/:id/authenticators',
    tags,
    summary: "A user's second factors",
    description: `TOTP, recovery codes, security keys and passkeys: type, dates, a key's name; never a secret or code. 404 \`not_found\`. ${COMMON_ERRORS}`,
    params: UserParams,
    response: responses({ 200: envelope(Type.Array(Type.Ref('AdminAuthenticator'))) }),
    run: async (deps, _call, _input, user) => ok((await authenticatorsOf(deps, user.id)).map(authenticatorView)),
  }),
  userEndpoint({
    method: 'DELETE',
    path: '/users/:id/authenticators/:authenticator',
    tags,
    summary: 'Remove a second factor',
    description: `As when the user removes one, the recovery codes go too once no TOTP or WebAuthn authenticator is left; \`data\` lists every one that went. Records \`authenticator.removed\` for each. Sessions stay logged in. 404 \`not_found\`. ${COMMON_ERRORS}`,
    params: Type.Object({ id: Id, authenticator: Id }),
    run: async (deps, call, { params }, user) => {
      const removed = await removeAuthenticator(deps, call.source(), user.id, Number(params.authenticator));
      return removed ? ok(removed.map((a) => ({ id: a.id, type: a.type }))) : refused(404, 'not_found', 'authenticator');
    },
  }),
];
