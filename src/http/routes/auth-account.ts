import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Deps } from '../../flows/context.js';
import { login } from '../../flows/auth/login.js';
import { signup } from '../../flows/auth/signup.js';
import { reauthenticate } from '../../flows/password/account-password.js';
import { requestContext } from '../client-auth.js';
import { send } from '../render.js';
import { authResponses } from '../schemas.js';

const LoginBody = Type.Object({
  email: Type.Optional(Type.String({ description: 'When email login is enabled.' })),
  username: Type.Optional(Type.String({ description: 'When username login is enabled.' })),
  phone: Type.Optional(Type.String({ description: 'When phone login is enabled; E.164.' })),
  password: Type.String({ minLength: 1 }),
});

const SignupBody = Type.Object({
  email: Type.Optional(Type.String()),
  username: Type.Optional(Type.String()),
  phone: Type.Optional(Type.String({ description: 'When ACCOUNT_SIGNUP_FIELDS has phone; E.164.' })),
  password: Type.Optional(Type.String()),
});

const ReauthenticateBody = Type.Object({ password: Type.String({ minLength: 1 }) });

export function accountAuthRoutes(scope: FastifyInstance, deps: Deps): void {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  // SOCIALACCOUNT_ONLY: accounts come from providers, with no local login or signup.
  const local = !deps.config.social.only;
  if (local) app.post(
    '/auth/login',
    {
      schema: {
        tags: ['Authentication: Account'],
        summary: 'Log in with a password',
        description:
          'Email, username or phone (per ACCOUNT_LOGIN_METHODS) and password. Errors: `email_password_mismatch` / `username_password_mismatch` / `phone_password_mismatch` (param password; the same for unknown accounts), `too_many_login_attempts` (failed-login lockout), `account_inactive`, `required`, `invalid`. 401 with `verify_email` pending when mandatory verification holds the login, or `verify_phone` when the phone number is unverified; 503 `sms_unavailable` when its code cannot be texted; 409 when already logged in; 429 when the per-IP login limit is reached.',
        body: LoginBody,
        response: authResponses(),
      },
    },
    async (request, reply) => send(deps, request, reply, await login(deps, requestContext(request, deps), request.body)),
  );
  if (local) app.post(
    '/auth/signup',
    {
      schema: {
        tags: ['Authentication: Account'],
        summary: 'Create an account',
        description:
          'Fields per ACCOUNT_SIGNUP_FIELDS. 200 when signed up and logged in; 401 with `verify_email` pending under mandatory verification (also, without revealing it, when the address already has an account); 403 when signup is closed; 409 when logged in. 401 with `verify_phone` pending when a phone number is collected and verified (also, without revealing it, when the number already has an account); 503 `sms_unavailable` when its code cannot be texted. Errors: `required`, `invalid`, `max_length`, `email_taken`, `username_taken`, `phone_taken` (only without enumeration prevention), `username_blacklisted`, `password_too_short`, `password_too_common`, `password_entirely_numeric`, `password_too_similar`.',
        body: SignupBody,
        response: authResponses(),
      },
    },
    async (request, reply) => send(deps, request, reply, await signup(deps, requestContext(request, deps), request.body)),
  );
  app.post(
    '/auth/reauthenticate',
    {
      schema: {
        tags: ['Authentication: Account'],
        summary: 'Confirm the password again',
        description: 'Refreshes the proof of identity that sensitive actions require. Errors: `incorrect_password`. 401 when not logged in; 429 when rate-limited.',
        body: ReauthenticateBody,
        response: authResponses(),
      },
    },
    async (request, reply) => send(deps, request, reply, await reauthenticate(deps, requestContext(request, deps), request.body.password)),
  );
}
