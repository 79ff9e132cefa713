import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Deps } from '../../../flows/context.js';
import { answerTrust, authenticateWithCode, reauthenticateWithCode } from '../../../flows/mfa/second-factor.js';
import { requestContext } from '../../client-auth.js';
import { send } from '../../render.js';
import { authResponses } from '../../schemas.js';
import { CodeBody } from './schemas.js';

const NOTHING_PENDING = '401 with `meta.is_authenticated` null when no such stage is pending (none started, expired after ACCOUNT_LOGIN_TIMEOUT, or completed).';
const CODE_ERRORS =
  'Errors (param code): `required`, `incorrect_code` (wrong, already used, or from an earlier time step), `too_many_login_attempts` (the `login_failed` limit: per IP, and 5 per 5 minutes per account, even for a right code).';

export function twoFactorRoutes(scope: FastifyInstance, deps: Deps, client: 'browser' | 'app'): void {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['Authentication: 2FA'];
  app.post(
    '/auth/2fa/authenticate',
    {
      schema: {
        tags,
        summary: 'Second factor of a login',
        description: `Completes the pending \`mfa_authenticate\` stage with a TOTP code or an unused recovery code of the account logging in: 200 logged in (methods end with \`{"method":"mfa","type":...}\`; browsers get a new session cookie, apps keep their token), or 401 with \`mfa_trust\` pending on a browser when MFA_TRUST_ENABLED. A wrong code leaves the stage pending. ${CODE_ERRORS} ${NOTHING_PENDING}`,
        body: CodeBody,
        response: authResponses(),
      },
    },
    async (request, reply) => send(deps, request, reply, await authenticateWithCode(deps, requestContext(request, deps), request.body.code)),
  );
  app.post(
    '/auth/2fa/reauthenticate',
    {
      schema: {
        tags,
        summary: 'Reauthenticate with a code',
        description: `The \`mfa_reauthenticate\` flow: a TOTP code or an unused recovery code refreshes the proof sensitive actions require; 200 with the method appended. ${CODE_ERRORS} 401 when not logged in.`,
        body: CodeBody,
        response: authResponses(),
      },
    },
    async (request, reply) => send(deps, request, reply, await reauthenticateWithCode(deps, requestContext(request, deps), request.body.code)),
  );
  if (client === 'browser' && deps.config.mfa.trust.enabled) {
    app.post(
      '/auth/2fa/trust',
      {
        schema: {
          tags,
          summary: 'Trust this browser',
          description: `Completes the pending \`mfa_trust\` stage (browser client, MFA_TRUST_ENABLED): 200 logged in; with \`trust: true\` the browser gets a signed cookie (MFA_TRUST_COOKIE_NAME, for MFA_TRUST_COOKIE_AGE) that skips the second factor of this account on this browser until its password or second factors change. Errors: \`invalid\` (param trust). ${NOTHING_PENDING}`,
          body: Type.Object({ trust: Type.Optional(Type.Boolean()) }),
          response: authResponses(),
        },
      },
      async (request, reply) => send(deps, request, reply, await answerTrust(deps, requestContext(request, deps), request.body.trust === true)),
    );
  }
}
