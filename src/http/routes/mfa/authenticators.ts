import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../../../flows/context.js';
import { listUserAuthenticators } from '../../../flows/mfa/authenticators.js';
import { activateTotp, deactivateTotp, describeTotp } from '../../../flows/mfa/totp.js';
import { regenerateRecoveryCodes, viewRecoveryCodes } from '../../../flows/mfa/recovery-codes.js';
import { requestContext } from '../../client-auth.js';
import { send } from '../../render.js';
import { authRef, errorRef, statusRef } from '../../schemas.js';
import { AuthenticatorResponse, AuthenticatorsResponse, CodeBody, TotpSetupResponse } from './schemas.js';

// /account/authenticators: listing second factors, TOTP and recovery codes.
// Routed per MFA_SUPPORTED_TYPES, as in the reference.

export const NOT_LOGGED_IN = '401 (410 for a stale app token) with the flows when not logged in, or with the pending stage during a login.';
export const REAUTH =
  '401 with `reauthenticate` (when the account has a usable password) and `mfa_reauthenticate` (with the account\'s authenticator `types`) when the last authentication is older than ACCOUNT_REAUTHENTICATION_TIMEOUT.';

export function authenticatorRoutes(scope: FastifyInstance, deps: Deps): void {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const { supportedTypes } = deps.config.mfa;
  const tags = ['Account: 2FA'];
  app.get(
    '/account/authenticators',
    {
      schema: {
        tags,
        summary: 'List authenticators',
        description: `The account's second factors in the order they were added. Needs no recent authentication. ${NOT_LOGGED_IN}`,
        response: { 200: AuthenticatorsResponse, 401: authRef, 410: authRef },
      },
    },
    async (request, reply) => send(deps, request, reply, await listUserAuthenticators(deps, requestContext(request, deps))),
  );

  if (supportedTypes.includes('totp')) {
    app.get(
      '/account/authenticators/totp',
      {
        schema: {
          tags,
          summary: 'TOTP authenticator, or a secret to set one up',
          description: `200 with the active TOTP authenticator; otherwise 404 with a new secret, its otpauth:// URL and a QR code in \`meta\` (every call makes a new secret; only the latest can be activated). 409 \`unverified_email\` while an address of the account is unverified (unless MFA_ALLOW_UNVERIFIED_EMAIL). Needs no recent authentication. ${NOT_LOGGED_IN}`,
          response: { 200: AuthenticatorResponse, 401: authRef, 404: TotpSetupResponse, 409: errorRef, 410: authRef },
        },
      },
      async (request, reply) => send(deps, request, reply, await describeTotp(deps, requestContext(request, deps))),
    );
    app.post(
      '/account/authenticators/totp',
      {
        schema: {
          tags,
          summary: 'Activate TOTP',
          description: `Activates the secret of the last GET with a current code of it; recovery codes are made too if the account has none. The code stays usable for logging in. Errors (param code): \`required\`, \`incorrect_code\`, \`unverified_email\`. 409 when TOTP is already active. ${REAUTH} ${NOT_LOGGED_IN}`,
          body: CodeBody,
          response: { 200: AuthenticatorResponse, 400: errorRef, 401: authRef, 409: statusRef, 410: authRef },
        },
      },
      async (request, reply) => send(deps, request, reply, await activateTotp(deps, requestContext(request, deps), request.body.code)),
    );
    app.delete(
      '/account/authenticators/totp',
      {
        schema: {
          tags,
          summary: 'Deactivate TOTP',
          description: `Removes TOTP, and the recovery codes with it when no WebAuthn key is left; logins then ask for no second factor. 200 also when TOTP was not active (then without asking for a recent authentication). ${REAUTH} ${NOT_LOGGED_IN}`,
          response: { 200: statusRef, 401: authRef, 410: authRef },
        },
      },
      async (request, reply) => send(deps, request, reply, await deactivateTotp(deps, requestContext(request, deps))),
    );
  }

  if (supportedTypes.includes('recovery_codes')) {
    app.get(
      '/account/authenticators/recovery-codes',
      {
        schema: {
          tags,
          summary: 'Recovery codes',
          description: `The recovery codes with the unused ones listed (with MFA_RECOVERY_CODES_SHOW_ONCE only on the first view after they were made). 404 when the account has none. ${REAUTH} ${NOT_LOGGED_IN}`,
          response: { 200: AuthenticatorResponse, 401: authRef, 404: statusRef, 410: authRef },
        },
      },
      async (request, reply) => send(deps, request, reply, await viewRecoveryCodes(deps, requestContext(request, deps))),
    );
    app.post(
      '/account/authenticators/recovery-codes',
      {
        schema: {
          tags,
          summary: 'Regenerate recovery codes',
          description: `A new set of codes; every earlier code stops working, and browsers trusted to skip the second factor are trusted no more. Errors: \`cannot_generate_recovery_codes\` (no TOTP or WebAuthn authenticator). ${REAUTH} ${NOT_LOGGED_IN}`,
          response: { 200: AuthenticatorResponse, 400: errorRef, 401: authRef, 404: statusRef, 410: authRef },
        },
      },
      async (request, reply) => send(deps, request, reply, await regenerateRecoveryCodes(deps, requestContext(request, deps))),
    );
  }
}
