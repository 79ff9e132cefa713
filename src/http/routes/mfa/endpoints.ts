import { Type } from 'typebox';
import type { Deps } from '../../../flows/context.js';
import { listUserAuthenticators } from '../../../flows/mfa/authenticators.js';
import { activateTotp, deactivateTotp, describeTotp } from '../../../flows/mfa/totp.js';
import { regenerateRecoveryCodes, viewRecoveryCodes } from '../../../flows/mfa/recovery-codes.js';
import { answerTrust, authenticateWithCode, reauthenticateWithCode } from '../../../flows/mfa/second-factor.js';
import { endpoint, only } from '../../endpoint.js';
import { authRef, authResponses, errorRef, statusRef } from '../../schemas.js';
import { AuthenticatorResponse, AuthenticatorsResponse, CodeBody, TotpSetupResponse } from './schemas.js';

// flows/mfa: /account/authenticators (listing second factors, TOTP and
// recovery codes, routed per MFA_SUPPORTED_TYPES, as in the reference) and the
// second factor of a login by code. WebAuthn: webauthn.ts. None of them
// unless MFA_ENABLED.

/** MFA_ENABLED, and `type` among MFA_SUPPORTED_TYPES. */
export const mfaWith =
  (type?: 'totp' | 'recovery_codes' | 'webauthn') =>
  ({ config }: Deps): boolean =>
    config.mfa.enabled && (type === undefined || config.mfa.supportedTypes.includes(type));

export const NOT_LOGGED_IN = '401 (410 for a stale app token) with the flows when not logged in, or with the pending stage during a login.';
export const REAUTH =
  '401 with `reauthenticate` (when the account has a usable password) and `mfa_reauthenticate` (with the account\'s authenticator `types`) when the last authentication is older than ACCOUNT_REAUTHENTICATION_TIMEOUT.';
const tags = ['Account: 2FA'];

export const authenticators = [
  ...only(mfaWith(), [
    endpoint({
      method: 'GET',
      path: '/account/authenticators',
      tags,
      summary: 'List authenticators',
      description: `The account's second factors in the order they were added. Needs no recent authentication. ${NOT_LOGGED_IN}`,
      response: { 200: AuthenticatorsResponse, 401: authRef, 410: authRef },
      run: (deps, ctx) => listUserAuthenticators(deps, ctx),
    }),
  ]),
  ...only(mfaWith('totp'), [
    endpoint({
      method: 'GET',
      path: '/account/authenticators/totp',
      tags,
      summary: 'TOTP authenticator, or a secret to set one up',
      description: `200 with the active TOTP authenticator; otherwise 404 with a new secret, its otpauth:// URL and a QR code in \`meta\` (every call makes a new secret; only the latest can be activated). 409 \`unverified_email\` while an address of the account is unverified (unless MFA_ALLOW_UNVERIFIED_EMAIL). Needs no recent authentication. ${NOT_LOGGED_IN}`,
      response: { 200: AuthenticatorResponse, 401: authRef, 404: TotpSetupResponse, 409: errorRef, 410: authRef },
      run: (deps, ctx) => describeTotp(deps, ctx),
    }),
    endpoint({
      method: 'POST',
      path: '/account/authenticators/totp',
      tags,
      summary: 'Activate TOTP',
      description: `Activates the secret of the last GET with a current code of it; recovery codes are made too if the account has none. The code stays usable for logging in. Errors (param code): \`required\`, \`incorrect_code\`, \`unverified_email\`. 409 when TOTP is already active. ${REAUTH} ${NOT_LOGGED_IN}`,
      body: CodeBody,
      response: { 200: AuthenticatorResponse, 400: errorRef, 401: authRef, 409: statusRef, 410: authRef },
      run: (deps, ctx, { body }) => activateTotp(deps, ctx, body.code),
    }),
    endpoint({
      method: 'DELETE',
      path: '/account/authenticators/totp',
      tags,
      summary: 'Deactivate TOTP',
      description: `Removes TOTP, and the recovery codes with it when no WebAuthn key is left; logins then ask for no second factor. 200 also when TOTP was not active (then without asking for a recent authentication). ${REAUTH} ${NOT_LOGGED_IN}`,
      response: { 200: statusRef, 401: authRef, 410: authRef },
      run: (deps, ctx) => deactivateTotp(deps, ctx),
    }),
  ]),
  ...only(mfaWith('recovery_codes'), [
    endpoint({
      method: 'GET',
      path: '/account/authenticators/recovery-codes',
      tags,
      summary: 'Recovery codes',
      description: `The recovery codes with the unused ones listed (with MFA_RECOVERY_CODES_SHOW_ONCE only on the first view after they were made). 404 when the account has none. ${REAUTH} ${NOT_LOGGED_IN}`,
      response: { 200: AuthenticatorResponse, 401: authRef, 404: statusRef, 410: authRef },
      run: (deps, ctx) => viewRecoveryCodes(deps, ctx),
    }),
    endpoint({
      method: 'POST',
      path: '/account/authenticators/recovery-codes',
      tags,
      summary: 'Regenerate recovery codes',
      description: `A new set of codes; every earlier code stops working, and browsers trusted to skip the second factor are trusted no more. Errors: \`cannot_generate_recovery_codes\` (no TOTP or WebAuthn authenticator). ${REAUTH} ${NOT_LOGGED_IN}`,
      response: { 200: AuthenticatorResponse, 400: errorRef, 401: authRef, 404: statusRef, 410: authRef },
      run: (deps, ctx) => regenerateRecoveryCodes(deps, ctx),
    }),
  ]),
];

const NOTHING_PENDING = '401 with `meta.is_authenticated` null when no such stage is pending (none started, expired after ACCOUNT_LOGIN_TIMEOUT, or completed).';
const CODE_ERRORS =
  'Errors (param code): `required`, `incorrect_code` (wrong, already used, or from an earlier time step), `too_many_login_attempts` (the `login_failed` limit: per IP, and 5 per 5 minutes per account, even for a right code).';

const twoFactorTags = ['Authentication: 2FA'];

export const twoFactor = only(mfaWith(), [
  endpoint({
    method: 'POST',
    path: '/auth/2fa/authenticate',
    tags: twoFactorTags,
    summary: 'Second factor of a login',
    description: `Completes the pending \`mfa_authenticate\` stage with a TOTP code or an unused recovery code of the account logging in: 200 logged in (methods end with \`{"method":"mfa","type":...}\`; browsers get a new session cookie, apps keep their token), or 401 with \`mfa_trust\` pending on a browser when MFA_TRUST_ENABLED. A wrong code leaves the stage pending. ${CODE_ERRORS} ${NOTHING_PENDING}`,
    body: CodeBody,
    response: authResponses(),
    counts: { kind: 'login', method: 'mfa' },
    run: (deps, ctx, { body }) => authenticateWithCode(deps, ctx, body.code),
  }),
  endpoint({
    method: 'POST',
    path: '/auth/2fa/reauthenticate',
    tags: twoFactorTags,
    summary: 'Reauthenticate with a code',
    description: `The \`mfa_reauthenticate\` flow: a TOTP code or an unused recovery code refreshes the proof sensitive actions require; 200 with the method appended. ${CODE_ERRORS} 401 when not logged in.`,
    body: CodeBody,
    response: authResponses(),
    run: (deps, ctx, { body }) => reauthenticateWithCode(deps, ctx, body.code),
  }),
  endpoint({
    method: 'POST',
    path: '/auth/2fa/trust',
    // The browser client only: an app has no cookie to keep.
    when: ({ config }, client) => client === 'browser' && config.mfa.trust.enabled,
    tags: twoFactorTags,
    summary: 'Trust this browser',
    description: `Completes the pending \`mfa_trust\` stage (browser client, MFA_TRUST_ENABLED): 200 logged in; with \`trust: true\` the browser gets a signed cookie (MFA_TRUST_COOKIE_NAME, for MFA_TRUST_COOKIE_AGE) that skips the second factor of this account on this browser until its password or second factors change. Errors: \`invalid\` (param trust). ${NOTHING_PENDING}`,
    body: Type.Object({ trust: Type.Optional(Type.Boolean()) }),
    response: authResponses(),
    run: (deps, ctx, { body }) => answerTrust(deps, ctx, body.trust === true),
  }),
]);
