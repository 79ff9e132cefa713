import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Deps } from '../../flows/context.js';
import { confirmLoginCode, requestLoginCode, resendLoginCode } from '../../flows/auth/login-by-code.js';
import { requestLoginCodeByPhone } from '../../flows/phone/phone-codes.js';
import { requestContext } from '../client-auth.js';
import { send } from '../render.js';
import { authResponses, errorRef, statusRef } from '../schemas.js';

const RequestBody = Type.Object({
  email: Type.Optional(Type.String()),
  phone: Type.Optional(Type.String({ description: 'E.164; when phone is among ACCOUNT_LOGIN_METHODS. The code then goes by SMS.' })),
});
const ConfirmBody = Type.Object({ code: Type.String() });

/** Mounted only when ACCOUNT_LOGIN_BY_CODE_ENABLED is on. */
export function loginByCodeRoutes(scope: FastifyInstance, deps: Deps): void {
  if (!deps.config.account.loginByCode.enabled) return;
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    '/auth/code/request',
    {
      schema: {
        tags: ['Authentication: Login By Code'],
        summary: 'Request a login code',
        description:
          'Mails a one-time sign-in code, or texts it for `{phone}` (E.164) when phone is among ACCOUNT_LOGIN_METHODS. Answers 401 with `login_by_code` pending whether or not the address or number has an account (an unknown address gets a notice instead of a code; an unknown number gets nothing); apps get a `session_token` to send with the confirmation. Errors: `required`, `invalid` (param email), `too_many_login_attempts` (param email; the `request_login_code` limit), `unknown_email` / `unknown_phone` (only with ACCOUNT_PREVENT_ENUMERATION off). 409 when already logged in; 503 `mail_unavailable` / `sms_unavailable`.',
        body: RequestBody,
        response: authResponses({ 503: errorRef }),
      },
    },
    async (request, reply) => {
      const { email, phone } = request.body;
      const ctx = requestContext(request, deps);
      return send(deps, request, reply, await (email === undefined && phone !== undefined ? requestLoginCodeByPhone(deps, ctx, phone) : requestLoginCode(deps, ctx, request.body)));
    },
  );
  app.post(
    '/auth/code/confirm',
    {
      schema: {
        tags: ['Authentication: Login By Code'],
        summary: 'Confirm a login code',
        description:
          'Completes the pending login: 200 authenticated (method `code`). A wrong code answers 400 `incorrect_code` (param code) and spends one of ACCOUNT_LOGIN_BY_CODE_MAX_ATTEMPTS attempts; the last one drops the flow. 409 when no login code is pending (none requested, expired, out of attempts, or already used).',
        body: ConfirmBody,
        response: authResponses(),
      },
    },
    async (request, reply) => send(deps, request, reply, await confirmLoginCode(deps, requestContext(request, deps), request.body.code)),
  );
  app.post(
    '/auth/code/resend',
    {
      schema: {
        tags: ['Authentication: Login By Code'],
        summary: 'Send a new login code',
        description:
          'Replaces the pending code with a new one (ACCOUNT_LOGIN_BY_CODE_SUPPORTS_RESEND times at most); the attempt count is kept. 409 when no login code is pending or no resend is left; 429 when rate-limited (`request_login_code`).',
        response: { 200: statusRef, 409: statusRef, 429: statusRef, 503: errorRef },
      },
    },
    async (request, reply) => send(deps, request, reply, await resendLoginCode(deps, requestContext(request, deps))),
  );
}
