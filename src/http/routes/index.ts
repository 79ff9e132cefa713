import type { Endpoint } from '../endpoint.js';
import { config } from './config/endpoints.js';
import * as auth from './auth/endpoints.js';
import * as password from './password/endpoints.js';
import * as email from './email/endpoints.js';
import * as phone from './phone/endpoints.js';
import * as account from './account/endpoints.js';
import * as social from './social/endpoints.js';
import { redirect } from './social/navigation.js';
import * as mfa from './mfa/endpoints.js';
import * as webauthn from './mfa/webauthn.js';
import * as tokens from './tokens/endpoints.js';

// The API of a client prefix, in the order the OpenAPI document lists it (and
// Allow headers name methods); each endpoint is declared with its flow's area.
// The provider callbacks (social/navigation.ts) and the probes
// (operations/endpoints.ts) are mounted at the root.
export const clientEndpoints: readonly Endpoint[] = [
  config,
  ...auth.session,
  ...auth.credentials,
  password.reauthentication,
  ...email.verification,
  password.change,
  ...password.reset,
  ...auth.loginByCode,
  ...email.addresses,
  ...account.sessions,
  account.deletion,
  ...account.profileEndpoints,
  ...phone.phone,
  ...social.social,
  redirect,
  ...mfa.authenticators,
  ...mfa.twoFactor,
  ...webauthn.keys,
  ...webauthn.keyLogin,
  ...webauthn.passkeyLogins,
  ...webauthn.passkeySignups,
  ...tokens.tokens,
];
