import { Type } from 'typebox';
import { currentSession, logout } from '../../../flows/auth/current-session.js';
import { login, LoginInput } from '../../../flows/auth/login.js';
import { signup, SignupInput } from '../../../flows/auth/signup.js';
import { confirmLoginCode, requestLoginCode, resendLoginCode } from '../../../flows/auth/login-by-code.js';
import { requestLoginCodeByPhone } from '../../../flows/phone/phone-codes.js';
import { endpoint, local, only } from '../../endpoint.js';
import { authResponses, errorRef, statusRef } from '../../schemas.js';

// flows/auth: the authentication state, login and signup, login by code.

export const session = [
  endpoint({
    method: 'GET',
    path: '/auth/session',
    tags: ['Authentication: Current Session'],
    summary: 'Authentication state',
    description: '200 with the user and how they authenticated; 401 with the flows to take when not authenticated; 410 (app clients) when the session token is no longer valid and should be dropped.',
    response: authResponses(),
    // A lookup answered from memory: no promise at all.
    run: (_deps, ctx) => currentSession(ctx),
  }),
  endpoint({
    method: 'DELETE',
    path: '/auth/session',
    tags: ['Authentication: Current Session'],
    summary: 'Log out',
    description:
      'Ends the session; its cookie or token stops working immediately. Answers 401 with the flows of a signed-out visitor. A session from a SAML login whose IdP has an SLO URL also gets `meta.logout_redirect_url`: the IdP\'s single logout with our LogoutRequest, where the client sends the browser to end the IdP\'s session (it comes back through /accounts/saml/<org>/sls/ to the frontend).',
    response: authResponses(),
    run: (deps, ctx) => logout(deps, ctx),
  }),
];

export const credentials = only(local, [
  endpoint({
    method: 'POST',
    path: '/auth/login',
    tags: ['Authentication: Account'],
    summary: 'Log in with a password',
    description:
      'Email, username or phone (per ACCOUNT_LOGIN_METHODS) and password. Errors: `email_password_mismatch` / `username_password_mismatch` / `phone_password_mismatch` (param password; the same for unknown accounts), `too_many_login_attempts` (failed-login lockout), `account_inactive`, `required`, `invalid`. 401 with `verify_email` pending when mandatory verification holds the login, or `verify_phone` when the phone number is unverified; 503 `sms_unavailable` when its code cannot be texted; 409 when already logged in; 429 when the per-IP login limit is reached.',
    body: LoginInput,
    response: authResponses(),
    counts: { kind: 'login', method: 'password' },
    run: (deps, ctx, { body }) => login(deps, ctx, body),
  }),
  endpoint({
    method: 'POST',
    path: '/auth/signup',
    tags: ['Authentication: Account'],
    summary: 'Create an account',
    description:
      'Fields per ACCOUNT_SIGNUP_FIELDS (first_name and last_name among them), and the ACCOUNT_PROFILE_SCHEMA fields as top-level keys (not part of the django-allauth API; see docs/profile.md). 200 when signed up and logged in; 401 with `verify_email` pending under mandatory verification (also, without revealing it, when the address already has an account); 403 when signup is closed; 409 when logged in. 401 with `verify_phone` pending when a phone number is collected and verified (also, without revealing it, when the number already has an account); 503 `sms_unavailable` when its code cannot be texted. Errors: `required`, `invalid`, `max_length`, `email_taken`, `username_taken`, `phone_taken` (only without enumeration prevention), `username_blacklisted`, `password_too_short`, `password_too_common`, `password_entirely_numeric`, `password_too_similar`; for profile fields (param: the field) also `invalid_choice`, `min_length`, `max_value`, `min_value`.',
    body: SignupInput,
    response: authResponses(),
    run: (deps, ctx, { body }) => signup(deps, ctx, body),
  }),
]);

// The code goes by mail, or by SMS for a phone number (flows/phone): one body for both.
const LoginCodeRequest = Type.Object({
  email: Type.Optional(Type.String()),
  phone: Type.Optional(Type.String({ description: 'E.164; when phone is among ACCOUNT_LOGIN_METHODS. The code then goes by SMS.' })),
});

/** Only when ACCOUNT_LOGIN_BY_CODE_ENABLED is on. */
export const loginByCode = only(({ config }) => config.account.loginByCode.enabled, [
  endpoint({
    method: 'POST',
    path: '/auth/code/request',
    tags: ['Authentication: Login By Code'],
    summary: 'Request a login code',
    description:
      'Mails a one-time sign-in code, or texts it for `{phone}` (E.164) when phone is among ACCOUNT_LOGIN_METHODS. Answers 401 with `login_by_code` pending whether or not the address or number has an account (an unknown address gets a notice instead of a code; an unknown number gets nothing); apps get a `session_token` to send with the confirmation. Errors: `required`, `invalid` (param email), `too_many_login_attempts` (param email; the `request_login_code` limit), `unknown_email` / `unknown_phone` (only with ACCOUNT_PREVENT_ENUMERATION off). 409 when already logged in; 503 `mail_unavailable` / `sms_unavailable`.',
    body: LoginCodeRequest,
    response: authResponses({ 503: errorRef }),
    run: (deps, ctx, { body }) => (body.email === undefined && body.phone !== undefined ? requestLoginCodeByPhone(deps, ctx, body.phone) : requestLoginCode(deps, ctx, body)),
  }),
  endpoint({
    method: 'POST',
    path: '/auth/code/confirm',
    tags: ['Authentication: Login By Code'],
    summary: 'Confirm a login code',
    description:
      'Completes the pending login: 200 authenticated (method `code`). A wrong code answers 400 `incorrect_code` (param code) and spends one of ACCOUNT_LOGIN_BY_CODE_MAX_ATTEMPTS attempts; the last one drops the flow. 409 when no login code is pending (none requested, expired, out of attempts, or already used).',
    body: Type.Object({ code: Type.String() }),
    response: authResponses(),
    counts: { kind: 'login', method: 'code' },
    run: (deps, ctx, { body }) => confirmLoginCode(deps, ctx, body.code),
  }),
  endpoint({
    method: 'POST',
    path: '/auth/code/resend',
    tags: ['Authentication: Login By Code'],
    summary: 'Send a new login code',
    description:
      'Replaces the pending code with a new one (ACCOUNT_LOGIN_BY_CODE_SUPPORTS_RESEND times at most); the attempt count is kept. 409 when no login code is pending or no resend is left; 429 when rate-limited (`request_login_code`).',
    response: { 200: statusRef, 409: statusRef, 429: statusRef, 503: errorRef },
    run: (deps, ctx) => resendLoginCode(deps, ctx),
  }),
]);
