import { Type } from 'typebox';
import { changePassword, ChangePasswordInput, reauthenticate } from '../../../flows/password/account-password.js';
import { describePasswordReset, requestPasswordReset, resetPassword, ResetPasswordInput } from '../../../flows/password/password-reset.js';
import { requestPasswordResetByPhone } from '../../../flows/phone/phone-codes.js';
import { endpoint, local, only } from '../../endpoint.js';
import { authResponses, errorRef, statusRef } from '../../schemas.js';

// flows/password: confirming the password again, changing it, resetting it.

export const reauthentication = endpoint({
  method: 'POST',
  path: '/auth/reauthenticate',
  tags: ['Authentication: Account'],
  summary: 'Confirm the password again',
  description: 'Refreshes the proof of identity that sensitive actions require. Errors: `incorrect_password`. 401 when not logged in; 429 when rate-limited.',
  body: Type.Object({ password: Type.String({ minLength: 1 }) }),
  response: authResponses(),
  run: (deps, ctx, { body }) => reauthenticate(deps, ctx, body.password),
});

export const change = endpoint({
  method: 'POST',
  path: '/account/password/change',
  when: local,
  tags: ['Account: Password'],
  summary: 'Change the password',
  description: 'Ends every other session of the account; this session gets a new key (a new `session_token` for apps). Errors: `enter_current_password`, `same_as_current`, `required`, and the password rules (`password_too_short`, ...). 401 when not logged in; 429 when rate-limited.',
  body: ChangePasswordInput,
  response: authResponses(),
  run: (deps, ctx, { body }) => changePassword(deps, ctx, body),
});

// The reset goes by mail, or by SMS for a phone number (flows/phone): one body for both.
const ResetRequest = Type.Object({
  email: Type.Optional(Type.String({ description: 'Required unless `phone` is given.' })),
  phone: Type.Optional(Type.String({ description: 'E.164; with reset by code and phone numbers in use, the code goes by SMS.' })),
});
const KeyHeader = Type.Object({ 'x-password-reset-key': Type.String({ description: 'The key from the reset link, or the code.' }) });
const ResetInfo = Type.Object({ status: Type.Integer(), data: Type.Object({ user: Type.Ref('User') }) });

export const reset = only(local, [
  endpoint({
    method: 'POST',
    path: '/auth/password/request',
    tags: ['Authentication: Password Reset'],
    summary: 'Request a password reset',
    description:
      'Mails a reset link, or a code when ACCOUNT_PASSWORD_RESET_BY_CODE_ENABLED is on; with reset by code and phone numbers in use, `{phone}` (E.164) gets the code by SMS (a number without an account is texted nothing). The answer is the same whether or not the address has an account (an unknown address gets a notice instead). By link: 200. By code: 401 with `password_reset_by_code` pending (apps get a `session_token`). Errors: `required`, `invalid`, `unknown_email` / `unknown_phone` (only with ACCOUNT_PREVENT_ENUMERATION off). 429 when rate-limited (`reset_password`); 503 `sms_unavailable` when the text cannot be sent. A mail is made and sent after the answer (so a known address answers in the time of an unknown one); a failure to send it is logged.',
    body: ResetRequest,
    response: authResponses({ 200: Type.Union([Type.Ref('AuthResponse'), statusRef]), 503: errorRef }),
    run: (deps, ctx, { body }) => (body.email === undefined && body.phone !== undefined ? requestPasswordResetByPhone(deps, ctx, body.phone) : requestPasswordReset(deps, ctx, body)),
  }),
  endpoint({
    method: 'GET',
    path: '/auth/password/reset',
    tags: ['Authentication: Password Reset'],
    summary: 'Look up a password reset key or code',
    description:
      'The account a reset key (or code) belongs to, without resetting. Errors: `invalid_password_reset` (param key) for a bad, used or expired link key, or one issued before the last password change; `incorrect_code` (param key) for a wrong code, which spends an attempt. 409 when reset is by code and none is pending (never requested, expired, or out of attempts). 429 when rate-limited (`reset_password_from_key`).',
    headers: KeyHeader,
    response: { 200: ResetInfo, 400: errorRef, 409: statusRef, 429: statusRef },
    run: (deps, ctx, { headers }) => describePasswordReset(deps, ctx, headers['x-password-reset-key']),
  }),
  endpoint({
    method: 'POST',
    path: '/auth/password/reset',
    tags: ['Authentication: Password Reset'],
    summary: 'Reset the password',
    description:
      'Sets the new password with a key (or code) that works once. Every other session of the account ends and its failed-login lockout is lifted. 200 logged in when ACCOUNT_LOGIN_ON_PASSWORD_RESET is on, else 401 (log in with the new password). Errors: `invalid_password_reset` / `incorrect_code` (param key), the password rules (`password_too_short`, ...; param password). 409 when reset is by code and none is pending. 429 when rate-limited (`reset_password_from_key`).',
    body: ResetPasswordInput,
    response: authResponses(),
    run: (deps, ctx, { body }) => resetPassword(deps, ctx, body),
  }),
]);
