import { Type } from 'typebox';
import { addWebAuthn, AddKeyInput, beginRegistration, removeWebAuthnKeys, renameWebAuthnKey, RenameKeyInput } from '../../../flows/mfa/webauthn/manage.js';
import { beginReauthentication, beginSecondFactor, reauthenticateWithKey, secondFactorWithKey } from '../../../flows/mfa/webauthn/authenticate.js';
import { beginPasskeyLogin, beginPasskeySignup, completePasskeySignup, PasskeyInput, passkeyLogin, passkeySignup, PasskeySignupInput } from '../../../flows/mfa/webauthn/passkeys.js';
import { CredentialInput } from '../../../flows/mfa/webauthn/credential.js';
import { endpoint, only } from '../../endpoint.js';
import { authRef, authResponses, errorRef, statusRef } from '../../schemas.js';
import { AuthenticatorResponse, WebAuthnOptionsResponse } from './schemas.js';
import { mfaWith, NOT_LOGGED_IN, REAUTH } from './endpoints.js';

// flows/mfa/webauthn: security keys and passkeys: managing them, using them
// as the second factor or to reauthenticate, and (when enabled) passkey login
// and passkey signup. Routed only when MFA_SUPPORTED_TYPES includes webauthn.

const ASSERTION_ERRORS =
  'Errors (param credential): `incorrect_code` (no options were fetched first, or the assertion does not verify: wrong key, challenge, origin, RP id, signature or counter), `too_many_login_attempts` (the `login_failed` limit per IP and per account).';
const NOTHING_PENDING = '401 with `meta.is_authenticated` null when no second factor is pending.';

const manage = ['Account: WebAuthn'];
const login = ['Authentication: WebAuthn: Login'];
const webauthn = mfaWith('webauthn');

export const keys = only(webauthn, [
  endpoint({
    method: 'GET',
    path: '/account/authenticators/webauthn',
    tags: manage,
    summary: 'Options to add a security key or passkey',
    description: `Creation options for navigator.credentials.create(); with \`?passwordless\` for a passkey (discoverable, with user verification required), otherwise for a security key used as a second factor. 409 \`unverified_email\` while an address is unverified (unless MFA_ALLOW_UNVERIFIED_EMAIL). ${REAUTH} ${NOT_LOGGED_IN}`,
    querystring: Type.Object({ passwordless: Type.Optional(Type.String({ description: 'Present (any value): ask for a passkey.' })) }),
    response: { 200: WebAuthnOptionsResponse, 401: authRef, 409: errorRef, 410: authRef },
    run: (deps, ctx, { query }) => beginRegistration(deps, ctx, query.passwordless !== undefined),
  }),
  endpoint({
    method: 'POST',
    path: '/account/authenticators/webauthn',
    tags: manage,
    summary: 'Add a security key or passkey',
    description: `Adds the credential made from the last options; without a name it is called "Master key", "Backup key", then "Key nr. N". \`meta.recovery_codes_generated\` says whether recovery codes were made with it (the first second factor). Errors: \`incorrect_code\` (no param: no options fetched, or the credential does not verify or is registered already), \`max_length\` (param name). 409 \`unverified_email\`. ${REAUTH} ${NOT_LOGGED_IN}`,
    body: AddKeyInput,
    response: { 200: AuthenticatorResponse, 400: errorRef, 401: authRef, 409: errorRef, 410: authRef },
    run: (deps, ctx, { body }) => addWebAuthn(deps, ctx, body),
  }),
  endpoint({
    method: 'PUT',
    path: '/account/authenticators/webauthn',
    tags: manage,
    summary: 'Rename a security key or passkey',
    description: `Errors: \`invalid_choice\` (param id: not a key of this account), \`required\` / \`max_length\` (param name). ${REAUTH} ${NOT_LOGGED_IN}`,
    body: RenameKeyInput,
    response: { 200: AuthenticatorResponse, 400: errorRef, 401: authRef, 410: authRef },
    run: (deps, ctx, { body }) => renameWebAuthnKey(deps, ctx, body),
  }),
  endpoint({
    method: 'DELETE',
    path: '/account/authenticators/webauthn',
    tags: manage,
    summary: 'Remove security keys or passkeys',
    description: `Removes the listed keys; the recovery codes go too when no TOTP or other key is left. Errors (param authenticators): \`required\`, \`invalid_choice\` (an id that is not a key of this account; nothing is removed). ${REAUTH} ${NOT_LOGGED_IN}`,
    body: Type.Object({ authenticators: Type.Array(Type.Integer(), { maxItems: 100 }) }),
    response: { 200: statusRef, 400: errorRef, 401: authRef, 410: authRef },
    run: (deps, ctx, { body }) => removeWebAuthnKeys(deps, ctx, body.authenticators),
  }),
]);

export const keyLogin = only(webauthn, [
  endpoint({
    method: 'GET',
    path: '/auth/webauthn/authenticate',
    tags: login,
    summary: 'Options for the second factor with a key',
    description: `Request options listing the keys of the account whose login waits at \`mfa_authenticate\`. ${NOTHING_PENDING}`,
    response: { 200: WebAuthnOptionsResponse, 401: authRef, 410: authRef },
    run: (deps, ctx) => beginSecondFactor(deps, ctx),
  }),
  endpoint({
    method: 'POST',
    path: '/auth/webauthn/authenticate',
    tags: login,
    summary: 'Second factor with a key',
    description: `Completes the pending \`mfa_authenticate\` stage with an assertion of one of the account's keys: 200 logged in (or 401 with \`mfa_trust\` pending on a browser when MFA_TRUST_ENABLED). ${ASSERTION_ERRORS} ${NOTHING_PENDING}`,
    body: CredentialInput,
    response: authResponses(),
    counts: { kind: 'login', method: 'webauthn' },
    run: (deps, ctx, { body }) => secondFactorWithKey(deps, ctx, body.credential),
  }),
  endpoint({
    method: 'GET',
    path: '/auth/webauthn/reauthenticate',
    tags: login,
    summary: 'Options to reauthenticate with a key',
    description: 'Request options listing the logged-in account\'s keys. 401 when not logged in.',
    response: { 200: WebAuthnOptionsResponse, 401: authRef, 410: authRef },
    run: (deps, ctx) => beginReauthentication(deps, ctx),
  }),
  endpoint({
    method: 'POST',
    path: '/auth/webauthn/reauthenticate',
    tags: login,
    summary: 'Reauthenticate with a key',
    description: `Refreshes the proof sensitive actions require; the method entry carries \`reauthenticated: true\`. ${ASSERTION_ERRORS} 401 when not logged in.`,
    body: CredentialInput,
    response: authResponses(),
    run: (deps, ctx, { body }) => reauthenticateWithKey(deps, ctx, body.credential),
  }),
]);

/** MFA_PASSKEY_LOGIN_ENABLED. */
export const passkeyLogins = only((deps) => webauthn(deps) && deps.config.mfa.passkeyLogin, [
  endpoint({
    method: 'GET',
    path: '/auth/webauthn/login',
    tags: login,
    summary: 'Options for a passkey login',
    description:
      'Request options for any passkey of this site (no username asked), with user verification required. A visitor without a session gets one to hold the challenge (a cookie, or `meta.session_token` for apps). 409 when already logged in; 429 when too many visitors without a session asked from one address (`passkey_login_session`).',
    response: { 200: WebAuthnOptionsResponse, 409: statusRef, 429: statusRef },
    run: (deps, ctx) => beginPasskeyLogin(deps, ctx),
  }),
  endpoint({
    method: 'POST',
    path: '/auth/webauthn/login',
    tags: login,
    summary: 'Log in with a passkey',
    description: `The passkey names the account it was registered to (by its credential id); a verified assertion logs it in with \`{"method":"mfa","type":"webauthn","passwordless":true}\` and no second factor (401 when email or phone verification holds the login). ${ASSERTION_ERRORS} \`account_inactive\`. 409 when already logged in.`,
    body: CredentialInput,
    response: authResponses(),
    counts: { kind: 'login', method: 'passkey' },
    run: (deps, ctx, { body }) => passkeyLogin(deps, ctx, body.credential),
  }),
]);

/** MFA_PASSKEY_SIGNUP_ENABLED. */
export const passkeySignups = only((deps) => webauthn(deps) && deps.config.mfa.passkeySignup, [
  endpoint({
    method: 'POST',
    path: '/auth/webauthn/signup',
    tags: ['Authentication: WebAuthn: Signup'],
    summary: 'Sign up with a passkey',
    description:
      'Like POST /auth/signup without a password (fields per ACCOUNT_SIGNUP_FIELDS). The login then waits for email verification (if mandatory) and for the passkey: 401 with `mfa_signup_webauthn` pending. Errors as for signup. 403 when signup is closed; 409 when logged in.',
    body: PasskeySignupInput,
    response: authResponses({ 503: errorRef }),
    run: (deps, ctx, { body }) => passkeySignup(deps, ctx, body),
  }),
  endpoint({
    method: 'GET',
    path: '/auth/webauthn/signup',
    tags: ['Authentication: WebAuthn: Signup'],
    summary: 'Options for the passkey of a signup',
    description: 'Creation options (passkey: discoverable, user verification required) for the account whose signup waits at `mfa_signup_webauthn`. 409 when no such signup is pending.',
    response: { 200: WebAuthnOptionsResponse, 409: statusRef, 410: authRef },
    run: (deps, ctx) => beginPasskeySignup(deps, ctx),
  }),
  endpoint({
    method: 'PUT',
    path: '/auth/webauthn/signup',
    tags: ['Authentication: WebAuthn: Signup'],
    summary: 'Complete a passkey signup',
    description: 'Registers the passkey made from the last options and logs in (200). Errors: `incorrect_code` (no param: no options fetched, or the credential does not verify), `max_length` (param name). 409 when no such signup is pending.',
    body: PasskeyInput,
    response: authResponses(),
    run: (deps, ctx, { body }) => completePasskeySignup(deps, ctx, body),
  }),
]);
