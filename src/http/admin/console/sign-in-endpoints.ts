import { enrolForConsole } from '../../../flows/admin/console-enrolment.js';
import type { Endpoint } from '../../endpoint.js';
import { config as configEndpoint } from '../../routes/config/endpoints.js';
import * as auth from '../../routes/auth/endpoints.js';
import * as password from '../../routes/password/endpoints.js';
import * as mfa from '../../routes/mfa/endpoints.js';
import * as webauthn from '../../routes/mfa/webauthn.js';
import { setupLinkEndpoints } from './setup-link-endpoints.js';

// What the console's sign-in mounts of the browser API at
// /_service/browser/v1 on the admin listener: the password login, the
// second factor by code or key, a passkey login (MFA_PASSKEY_LOGIN_ENABLED),
// reauthentication, logout; the account's own second factors, so that an
// administrator without one enrols it here (console-enrolment.ts); and the
// setup link the CLI prints.

/** The two routes that add a second factor. */
const ENROLMENTS = new Set(['/account/authenticators/totp', '/account/authenticators/webauthn']);

/** Adding the account's first second factor also counts as this session's (see enrolForConsole). */
function countingEnrolment(e: Endpoint): Endpoint {
  if (!('run' in e) || e.method !== 'POST' || !ENROLMENTS.has(e.path)) return e;
  const run = e.run;
  return { ...e, run: (deps, ctx, input) => enrolForConsole(deps, ctx, async () => run(deps, ctx, input)) };
}

export const consoleSignInEndpoints: Endpoint[] = [
  configEndpoint,
  ...auth.session,
  ...auth.credentials,
  password.reauthentication,
  ...mfa.twoFactor,
  ...webauthn.keyLogin,
  ...webauthn.passkeyLogins,
  ...[...mfa.authenticators, ...webauthn.keys].map(countingEnrolment),
  ...setupLinkEndpoints,
];
