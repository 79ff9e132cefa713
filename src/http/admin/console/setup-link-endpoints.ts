import { Type } from 'typebox';
import { describeSetupLink, redeemSetupLink, RedeemSetupLinkInput } from '../../../flows/admin/setup-links.js';
import { endpoint, type Endpoint } from '../../endpoint.js';
import { authResponses, errorRef } from '../../schemas.js';

// The console's setup link (flows/admin/setup-links.ts), on the console's
// sign-in only: the page reads the token from its fragment and sends it here.

const KeyHeader = Type.Object({ 'x-setup-key': Type.String({ description: 'The token of the setup link.' }) });
const SetupInfo = Type.Object({ status: Type.Integer(), data: Type.Object({ user: Type.Ref('User') }) });

export const setupLinkEndpoints: Endpoint[] = [
  endpoint({
    method: 'GET',
    path: '/auth/setup-link',
    summary: 'Look up a console setup link',
    description: 'Whose link it is, and whether the account has a password (`has_usable_password`); spends nothing. Errors: `invalid_or_expired_key` (param key: unknown, used, expired, or its user is no longer an active administrator).',
    headers: KeyHeader,
    response: { 200: SetupInfo, 400: errorRef },
    run: (deps, ctx, { headers }) => describeSetupLink(deps, ctx, headers['x-setup-key']),
  }),
  endpoint({
    method: 'POST',
    path: '/auth/setup-link',
    summary: 'Sign in with a console setup link',
    description:
      'Spends the link with a new password (an account without one; the password rules apply, param password) or the account\'s current one (`incorrect_password`), and signs in with it; the administrator then enrols a second factor. Errors: `invalid_or_expired_key` (param key), `too_many_login_attempts`. 409 when signed in already.',
    body: RedeemSetupLinkInput,
    response: authResponses(),
    run: (deps, ctx, { body }) => redeemSetupLink(deps, ctx, body),
  }),
];
