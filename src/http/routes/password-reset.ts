import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Deps } from '../../flows/context.js';
import { describePasswordReset, requestPasswordReset, resetPassword } from '../../flows/password/password-reset.js';
import { requestPasswordResetByPhone } from '../../flows/phone/phone-codes.js';
import { requestContext } from '../client-auth.js';
import { send } from '../render.js';
import { authResponses, errorRef, statusRef } from '../schemas.js';

const RequestBody = Type.Object({
  email: Type.Optional(Type.String({ description: 'Required unless `phone` is given.' })),
  phone: Type.Optional(Type.String({ description: 'E.164; with reset by code and phone numbers in use, the code goes by SMS.' })),
});
const ResetBody = Type.Object({
  key: Type.String({ description: 'The key from the reset link, or the code when reset is by code.' }),
  password: Type.String(),
});
const KeyHeader = Type.Object({ 'x-password-reset-key': Type.String({ description: 'The key from the reset link, or the code.' }) });
const ResetInfo = Type.Object({ status: Type.Integer(), data: Type.Object({ user: Type.Ref('User') }) });

export function passwordResetRoutes(scope: FastifyInstance, deps: Deps): void {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    '/auth/password/request',
    {
      schema: {
        tags: ['Authentication: Password Reset'],
        summary: 'Request a password reset',
        description:
          'Mails a reset link, or a code when ACCOUNT_PASSWORD_RESET_BY_CODE_ENABLED is on; with reset by code and phone numbers in use, `{phone}` (E.164) gets the code by SMS (a number without an account is texted nothing). The answer is the same whether or not the address has an account (an unknown address gets a notice instead). By link: 200. By code: 401 with `password_reset_by_code` pending (apps get a `session_token`). Errors: `required`, `invalid`, `unknown_email` / `unknown_phone` (only with ACCOUNT_PREVENT_ENUMERATION off). 429 when rate-limited (`reset_password`); 503 `sms_unavailable` when the text cannot be sent. A mail is made and sent after the answer (so a known address answers in the time of an unknown one); a failure to send it is logged.',
        body: RequestBody,
        response: authResponses({ 200: Type.Union([Type.Ref('AuthResponse'), statusRef]), 503: errorRef }),
      },
    },
    async (request, reply) => {
      const { email, phone } = request.body;
      const ctx = requestContext(request, deps);
      return send(deps, request, reply, await (email === undefined && phone !== undefined ? requestPasswordResetByPhone(deps, ctx, phone) : requestPasswordReset(deps, ctx, request.body)));
    },
  );
  app.get(
    '/auth/password/reset',
    {
      schema: {
        tags: ['Authentication: Password Reset'],
        summary: 'Look up a password reset key or code',
        description:
          'The account a reset key (or code) belongs to, without resetting. Errors: `invalid_password_reset` (param key) for a bad, used or expired link key, or one issued before the last password change; `incorrect_code` (param key) for a wrong code, which spends an attempt. 409 when reset is by code and none is pending (never requested, expired, or out of attempts). 429 when rate-limited (`reset_password_from_key`).',
        headers: KeyHeader,
        response: { 200: ResetInfo, 400: errorRef, 409: statusRef, 429: statusRef },
      },
    },
    async (request, reply) => {
      const key = (request.headers as Record<string, string>)['x-password-reset-key']!;
      return send(deps, request, reply, await describePasswordReset(deps, requestContext(request, deps), key));
    },
  );
  app.post(
    '/auth/password/reset',
    {
      schema: {
        tags: ['Authentication: Password Reset'],
        summary: 'Reset the password',
        description:
          'Sets the new password with a key (or code) that works once. Every other session of the account ends and its failed-login lockout is lifted. 200 logged in when ACCOUNT_LOGIN_ON_PASSWORD_RESET is on, else 401 (log in with the new password). Errors: `invalid_password_reset` / `incorrect_code` (param key), the password rules (`password_too_short`, ...; param password). 409 when reset is by code and none is pending. 429 when rate-limited (`reset_password_from_key`).',
        body: ResetBody,
        response: authResponses(),
      },
    },
    async (request, reply) => send(deps, request, reply, await resetPassword(deps, requestContext(request, deps), request.body)),
  );
}
