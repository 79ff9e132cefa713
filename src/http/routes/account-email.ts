import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Deps } from '../../flows/context.js';
import { addEmailAddress, listEmailAddresses, markPrimaryEmailAddress, removeEmailAddress, resendEmailVerification } from '../../flows/email/manage-email.js';
import { requestContext } from '../client-auth.js';
import { send } from '../render.js';
import { authRef, errorRef, statusRef } from '../schemas.js';

const EmailAddresses = Type.Object({
  status: Type.Integer(),
  data: Type.Array(Type.Object({ email: Type.String(), primary: Type.Boolean(), verified: Type.Boolean() })),
});
const EmailBody = Type.Object({ email: Type.String() });
const PrimaryBody = Type.Object({ email: Type.String(), primary: Type.Optional(Type.Literal(true)) });

const REAUTH = '401 with the `reauthenticate` flow when the last authentication is older than ACCOUNT_REAUTHENTICATION_TIMEOUT (or when not logged in, with the login flows).';
const listResponses = { 200: EmailAddresses, 400: errorRef, 401: authRef, 410: authRef, 429: statusRef };

export function accountEmailRoutes(scope: FastifyInstance, deps: Deps): void {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['Account: Email'];
  app.get(
    '/account/email',
    {
      schema: { tags, summary: 'List email addresses', description: 'The account\'s addresses, the primary one first. 401 when not logged in.', response: { 200: EmailAddresses, 401: authRef, 410: authRef } },
    },
    async (request, reply) => send(deps, request, reply, await listEmailAddresses(deps, requestContext(request, deps))),
  );
  app.post(
    '/account/email',
    {
      schema: {
        tags,
        summary: 'Add an email address',
        description: `Adds an address (unverified) and mails its verification link or code; with ACCOUNT_CHANGE_EMAIL on, the new address replaces the current one once verified. An address of another account is not revealed: the list comes back unchanged and the owner is told by mail (with ACCOUNT_PREVENT_ENUMERATION off: \`email_taken\`). Errors: \`invalid\`, \`duplicate_email\`, \`max_email_addresses\` (ACCOUNT_MAX_EMAIL_ADDRESSES), all with param email. ${REAUTH} 429 when rate-limited (\`manage_email\`).`,
        body: EmailBody,
        response: { ...listResponses, 503: errorRef },
      },
    },
    async (request, reply) => send(deps, request, reply, await addEmailAddress(deps, requestContext(request, deps), request.body.email)),
  );
  app.delete(
    '/account/email',
    {
      schema: {
        tags,
        summary: 'Remove an email address',
        description: `Errors: \`unknown_email\` (not an address of this account), \`cannot_remove_primary_email\` (the primary address while others exist, or the last address), with param email. ${REAUTH} 429 when rate-limited (\`manage_email\`).`,
        body: EmailBody,
        response: listResponses,
      },
    },
    async (request, reply) => send(deps, request, reply, await removeEmailAddress(deps, requestContext(request, deps), request.body.email)),
  );
  app.patch(
    '/account/email',
    {
      schema: {
        tags,
        summary: 'Make an address primary',
        description: `Only a verified address can become primary (unless none is verified). Errors: \`unknown_email\`, \`unverified_primary_email\`, with param email. ${REAUTH} 429 when rate-limited (\`manage_email\`).`,
        body: PrimaryBody,
        response: listResponses,
      },
    },
    async (request, reply) => send(deps, request, reply, await markPrimaryEmailAddress(deps, requestContext(request, deps), request.body.email)),
  );
  app.put(
    '/account/email',
    {
      schema: {
        tags,
        summary: 'Send the verification again',
        description: 'Mails a new verification link or code for an unverified address of the account: 200 when sent, 403 when not (already verified, within the cooldown, or the `manage_email` limit reached). Errors: `unknown_email` (param email). 401 when not logged in.',
        body: EmailBody,
        response: { 200: statusRef, 400: errorRef, 401: authRef, 403: statusRef, 410: authRef, 503: errorRef },
      },
    },
    async (request, reply) => send(deps, request, reply, await resendEmailVerification(deps, requestContext(request, deps), request.body.email)),
  );
}
