import { Type } from 'typebox';
import { resendPhoneVerification, verifyPhone } from '../../../flows/phone/phone-verification.js';
import { phoneEnabled } from '../../../flows/phone/verification-sms.js';
import { changePhone, listPhones } from '../../../flows/phone/phone-management.js';
import { endpoint, local, only } from '../../endpoint.js';
import { authRef, authResponses, errorRef, statusRef } from '../../schemas.js';

// flows/phone: verifying a number, and the account's number.

const PhoneNumbers = Type.Object({
  status: Type.Integer(),
  data: Type.Array(
    Type.Object({
      phone: Type.String({ description: 'E.164, e.g. +14155552671.' }),
      verified: Type.Boolean(),
    }),
    { description: 'The account\'s phone number; at most one entry.' },
  ),
});

const VerifyPhoneBody = Type.Object({ code: Type.String({ description: 'The code from the SMS.' }) });
const PhoneBody = Type.Object({ phone: Type.String({ description: 'The new number in E.164 (international format, leading +).' }) });

/** Only when phone numbers are in use (ACCOUNT_SIGNUP_FIELDS or ACCOUNT_LOGIN_METHODS name them), and not under SOCIALACCOUNT_ONLY. */
export const phone = only((deps) => local(deps) && phoneEnabled(deps), [
  endpoint({
    method: 'POST',
    path: '/auth/phone/verify',
    tags: ['Authentication: Account'],
    summary: 'Verify a phone number',
    description:
      'Confirms the code texted for the pending `verify_phone` flow. At signup or login the answer is 200 authenticated; for a change of number (logged in) the number becomes the account\'s, verified. Errors: `incorrect_code` (param code; each wrong code spends one of ACCOUNT_PHONE_VERIFICATION_MAX_ATTEMPTS). 409 when nothing is pending, the code expired or the attempts ran out.',
    body: VerifyPhoneBody,
    response: authResponses(),
    run: (deps, ctx, { body }) => verifyPhone(deps, ctx, body.code),
  }),
  endpoint({
    method: 'POST',
    path: '/auth/phone/verify/resend',
    tags: ['Authentication: Account'],
    summary: 'Text the phone verification code again',
    description: 'A new code for the pending `verify_phone` flow; the attempts already spent stay spent. 409 when nothing is pending; 429 when rate-limited (action `verify_phone`); 503 `sms_unavailable` when the SMS could not be sent.',
    response: { 200: statusRef, 409: statusRef, 429: statusRef, 503: errorRef },
    run: (deps, ctx) => resendPhoneVerification(deps, ctx),
  }),
  endpoint({
    method: 'GET',
    path: '/account/phone',
    tags: ['Account: Phone'],
    summary: 'The account\'s phone number',
    description: 'A list with the account\'s number, empty when it has none. 401 when not logged in.',
    response: { 200: PhoneNumbers, 401: authRef, 410: authRef },
    run: (deps, ctx) => listPhones(deps, ctx),
  }),
  endpoint({
    method: 'POST',
    path: '/account/phone',
    tags: ['Account: Phone'],
    summary: 'Change the phone number',
    description:
      'Texts a code to the new number and answers 202 with the number, unverified; confirm with POST /auth/phone/verify. A number that belongs to another account gets the same answer (its owner is told by SMS; no code can complete it). Errors: `invalid` (param phone: not a valid E.164 number), `same_as_current`. 401 with the `reauthenticate` flow when the last authentication is too old; 409 when not logged in; 429 when rate-limited (actions `change_phone`, `verify_phone`); 503 `sms_unavailable`.',
    body: PhoneBody,
    response: { 202: PhoneNumbers, 400: errorRef, 401: authRef, 409: statusRef, 410: authRef, 429: statusRef, 503: errorRef },
    run: (deps, ctx, { body }) => changePhone(deps, ctx, body.phone),
  }),
]);
