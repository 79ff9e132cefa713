import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Deps } from '../../flows/context.js';
import { describeVerification, resendVerification, verifyEmail } from '../../flows/email/email-verification.js';
import { requestContext } from '../client-auth.js';
import { send } from '../render.js';
import { authResponses, errorRef, statusRef } from '../schemas.js';

const VerificationInfo = Type.Object({
  status: Type.Integer(),
  data: Type.Object({ email: Type.String(), user: Type.Union([Type.Ref('User'), Type.Null()]) }),
  meta: Type.Object({ is_authenticating: Type.Boolean() }),
});

const KeyHeader = Type.Object({ 'x-email-verification-key': Type.String({ description: 'The key from the link, or the code.' }) });
const VerifyBody = Type.Object({ key: Type.String({ description: 'The key from the link, or the code when verification is by code.' }) });

export function emailVerificationRoutes(scope: FastifyInstance, deps: Deps): void {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/auth/email/verify',
    {
      schema: {
        tags: ['Authentication: Account'],
        summary: 'Look up an email verification key',
        description: 'Tells which address and account a key (or code) belongs to, and whether verifying it continues a login. Errors: `invalid_or_expired_key`, `incorrect_code` (param key; a code lookup spends an attempt). 409 when verification is by code and none is pending.',
        headers: KeyHeader,
        response: { 200: VerificationInfo, 400: errorRef, 409: statusRef },
      },
    },
    async (request, reply) => {
      const key = (request.headers as Record<string, string>)['x-email-verification-key']!;
      return send(deps, request, reply, await describeVerification(deps, requestContext(request, deps), key));
    },
  );
  app.post(
    '/auth/email/verify',
    {
      schema: {
        tags: ['Authentication: Account'],
        summary: 'Verify an email address',
        description: 'Verifies with the key from the link, or the code. When it completes a pending login the answer is 200 authenticated; otherwise 401 (verified, not logged in) or 200 for an already authenticated session. Errors: `invalid_or_expired_key`, `incorrect_code` (param key). 409 when a code flow is not (or no longer) pending.',
        body: VerifyBody,
        response: authResponses(),
      },
    },
    async (request, reply) => send(deps, request, reply, await verifyEmail(deps, requestContext(request, deps), request.body.key)),
  );
  app.post(
    '/auth/email/verify/resend',
    {
      schema: {
        tags: ['Authentication: Account'],
        summary: 'Send the verification mail again',
        description: 'A new code (or link) for the pending verification; a new code does not reset the attempt count. 409 when nothing is pending; 429 within the cooldown.',
        response: { 200: statusRef, 409: statusRef, 429: statusRef },
      },
    },
    async (request, reply) => send(deps, request, reply, await resendVerification(deps, requestContext(request, deps))),
  );
}
