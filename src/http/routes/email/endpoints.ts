import { Type } from 'typebox';
import { describeVerification, resendVerification, verifyEmail } from '../../../flows/email/email-verification.js';
import { addEmailAddress, listEmailAddresses, markPrimaryEmailAddress, removeEmailAddress, resendEmailVerification } from '../../../flows/email/manage-email.js';
import { endpoint, local, only } from '../../endpoint.js';
import { authRef, authResponses, errorRef, statusRef } from '../../schemas.js';

// flows/email: verifying an address, and the account's addresses. None under
// SOCIALACCOUNT_ONLY.

const VerificationInfo = Type.Object({
  status: Type.Integer(),
  data: Type.Object({ email: Type.String(), user: Type.Union([Type.Ref('User'), Type.Null()]) }),
  meta: Type.Object({ is_authenticating: Type.Boolean() }),
});

const KeyHeader = Type.Object({ 'x-email-verification-key': Type.String({ description: 'The key from the link, or the code.' }) });
const VerifyBody = Type.Object({ key: Type.String({ description: 'The key from the link, or the code when verification is by code.' }) });

export const verification = only(local, [
  endpoint({
    method: 'GET',
    path: '/auth/email/verify',
    tags: ['Authentication: Account'],
    summary: 'Look up an email verification key',
    description: 'Tells which address and account a key (or code) belongs to, and whether verifying it continues a login. Errors: `invalid_or_expired_key`, `incorrect_code` (param key; a code lookup spends an attempt). 409 when verification is by code and none is pending.',
    headers: KeyHeader,
    response: { 200: VerificationInfo, 400: errorRef, 409: statusRef },
    run: (deps, ctx, { headers }) => describeVerification(deps, ctx, headers['x-email-verification-key']),
  }),
  endpoint({
    method: 'POST',
    path: '/auth/email/verify',
    tags: ['Authentication: Account'],
    summary: 'Verify an email address',
    description: 'Verifies with the key from the link, or the code. When it completes a pending login the answer is 200 authenticated; otherwise 401 (verified, not logged in) or 200 for an already authenticated session. Errors: `invalid_or_expired_key`, `incorrect_code` (param key). 409 when a code flow is not (or no longer) pending.',
    body: VerifyBody,
    response: authResponses(),
    run: (deps, ctx, { body }) => verifyEmail(deps, ctx, body.key),
  }),
  endpoint({
    method: 'POST',
    path: '/auth/email/verify/resend',
    tags: ['Authentication: Account'],
    summary: 'Send the verification mail again',
    description: 'A new code (or link) for the pending verification; a new code does not reset the attempt count. 409 when nothing is pending; 429 within the cooldown.',
    response: { 200: statusRef, 409: statusRef, 429: statusRef },
    run: (deps, ctx) => resendVerification(deps, ctx),
  }),
]);

const EmailAddresses = Type.Object({
  status: Type.Integer(),
  data: Type.Array(Type.Object({ email: Type.String(), primary: Type.Boolean(), verified: Type.Boolean() })),
});
const EmailBody = Type.Object({ email: Type.String() });
const PrimaryBody = Type.Object({ email: Type.String(), primary: Type.Optional(Type.Literal(true)) });

const REAUTH = '401 with the `reauthenticate` flow when the last authentication is older than ACCOUNT_REAUTHENTICATION_TIMEOUT (or when not logged in, with the login flows).';
const listResponses = { 200: EmailAddresses, 400: errorRef, 401: authRef, 410: authRef, 429: statusRef };
const tags = ['Account: Email'];

export const addresses = only(local, [
  endpoint({
    method: 'GET',
    path: '/account/email',
    tags,
    summary: 'List email addresses',
    description: 'The account\'s addresses, the primary one first. 401 when not logged in.',
    response: { 200: EmailAddresses, 401: authRef, 410: authRef },
    run: (deps, ctx) => listEmailAddresses(deps, ctx),
  }),
  endpoint({
    method: 'POST',
    path: '/account/email',
    tags,
    summary: 'Add an email address',
    description: `Adds an address (unverified) and mails its verification link or code; with ACCOUNT_CHANGE_EMAIL on, the new address replaces the current one once verified. An address of another account is not revealed: the list comes back unchanged and the owner is told by mail (with ACCOUNT_PREVENT_ENUMERATION off: \`email_taken\`). Errors: \`invalid\`, \`duplicate_email\`, \`max_email_addresses\` (ACCOUNT_MAX_EMAIL_ADDRESSES), all with param email. ${REAUTH} 429 when rate-limited (\`manage_email\`).`,
    body: EmailBody,
    response: { ...listResponses, 503: errorRef },
    run: (deps, ctx, { body }) => addEmailAddress(deps, ctx, body.email),
  }),
  endpoint({
    method: 'DELETE',
    path: '/account/email',
    tags,
    summary: 'Remove an email address',
    description: `Errors: \`unknown_email\` (not an address of this account), \`cannot_remove_primary_email\` (the primary address while others exist, or the last address), with param email. ${REAUTH} 429 when rate-limited (\`manage_email\`).`,
    body: EmailBody,
    response: listResponses,
    run: (deps, ctx, { body }) => removeEmailAddress(deps, ctx, body.email),
  }),
  endpoint({
    method: 'PATCH',
    path: '/account/email',
    tags,
    summary: 'Make an address primary',
    description: `Only a verified address can become primary (unless none is verified). Errors: \`unknown_email\`, \`unverified_primary_email\`, with param email. ${REAUTH} 429 when rate-limited (\`manage_email\`).`,
    body: PrimaryBody,
    response: listResponses,
    run: (deps, ctx, { body }) => markPrimaryEmailAddress(deps, ctx, body.email),
  }),
  endpoint({
    method: 'PUT',
    path: '/account/email',
    tags,
    summary: 'Send the verification again',
    description: 'Mails a new verification link or code for an unverified address of the account: 200 when sent, 403 when not (already verified, within the cooldown, or the `manage_email` limit reached). Errors: `unknown_email` (param email). 401 when not logged in.',
    body: EmailBody,
    response: { 200: statusRef, 400: errorRef, 401: authRef, 403: statusRef, 410: authRef, 503: errorRef },
    run: (deps, ctx, { body }) => resendEmailVerification(deps, ctx, body.email),
  }),
]);
