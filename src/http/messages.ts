import type { ErrorCode, FieldError } from '../flows/outcome.js';

/** Codes the http layer itself answers with, before any flow runs. */
export type HttpErrorCode =
  | 'invalid_json'
  | 'bad_request'
  | 'unsupported_media_type'
  | 'payload_too_large'
  | 'headers_too_large'
  | 'request_timeout'
  | 'not_found'
  | 'method_not_allowed'
  | 'csrf_failed'
  | 'not_ready'
  | 'server_error'
  // The admin API and console (http/admin).
  | 'invalid_api_key'
  | 'insufficient_scope'
  | 'too_many_requests'
  | 'not_authenticated'
  | 'admin_required'
  | 'mfa_required'
  | 'reauthentication_required'
  | 'last_admin'
  | 'not_failed'
  | 'no_email_address'
  | 'password_reset_by_code'
  | 'client_exists'
  | 'public_client'
  | 'private_key_jwt_client';

export type WireErrorCode = ErrorCode | HttpErrorCode;

// The one place the human-readable texts live; tests assert on codes only.
const MESSAGES: Record<WireErrorCode, string> = {
  required: 'This field is required.',
  invalid: 'Enter a valid value.',
  max_length: 'This value is too long.',
  invalid_credentials: 'The credentials you specified are not correct.',
  email_password_mismatch: 'The email address and/or password you specified are not correct.',
  username_password_mismatch: 'The username and/or password you specified are not correct.',
  too_many_login_attempts: 'Too many failed login attempts. Try again later.',
  account_inactive: 'This account is inactive.',
  email_taken: 'A user is already registered with this email address.',
  username_taken: 'A user with that username already exists.',
  username_blacklisted: 'Username can not be used. Please use another username.',
  incorrect_password: 'Incorrect password.',
  enter_current_password: 'Please type your current password.',
  same_as_current: 'The new password must differ from the current one.',
  incorrect_code: 'Incorrect code.',
  invalid_or_expired_key: 'Invalid or expired key.',
  password_too_short: 'This password is too short.',
  password_too_common: 'This password is too common.',
  password_entirely_numeric: 'This password is entirely numeric.',
  password_too_similar: 'The password is too similar to your other details.',
  mail_unavailable: 'The email could not be sent right now. Please try again later.',
  phone_password_mismatch: 'The phone number and/or password you specified are not correct.',
  phone_taken: 'A user is already registered with this phone number.',
  unknown_phone: 'The phone number is not assigned to any user account.',
  sms_unavailable: 'The text message could not be sent right now. Please try again later.',
  invalid_password_reset: 'The password reset token was invalid.',
  unknown_email: 'The email address is not assigned to any user account.',
  duplicate_email: 'You have already added this email address.',
  max_email_addresses: 'You cannot add more email addresses.',
  cannot_remove_primary_email: 'You cannot remove your primary email address.',
  unverified_primary_email: 'You cannot set an unverified email address as primary.',
  invalid_choice: 'Select a valid choice.',
  invalid_token: 'The token is invalid or has expired.',
  client_id_required: 'The token needs the client_id of the app it was issued to.',
  token_required: 'Send an id_token or an access_token.',
  token_authentication_not_supported: 'This provider does not accept tokens handed over by an app.',
  account_not_found: 'No such provider account is connected to this account.',
  connected_other: 'This provider account is connected to another user.',
  no_password: 'Set a password before disconnecting the last provider account.',
  no_verified_email: 'Verify an email address before disconnecting the last provider account.',
  disconnect_last: 'The last provider account cannot be disconnected.',
  service_unavailable: 'The service is briefly unavailable. Please try again in a few seconds.',
  unverified_email: 'You cannot activate two-factor authentication until you have verified your email address.',
  add_email_blocked: 'You cannot add an email address to an account protected by two-factor authentication.',
  cannot_generate_recovery_codes: 'You cannot generate recovery codes without having two-factor authentication enabled.',
  invalid_json: 'The request body is not valid JSON.',
  bad_request: 'The request could not be understood.',
  unsupported_media_type: 'Send the request body as application/json.',
  payload_too_large: 'The request body is too large.',
  headers_too_large: 'The request headers are too large.',
  request_timeout: 'The request took too long to arrive.',
  not_found: 'Not found.',
  method_not_allowed: 'Method not allowed.',
  csrf_failed: 'CSRF token missing or incorrect. Send the csrftoken cookie value in the X-CSRFToken header.',
  not_ready: 'A dependency of this instance is not answering.',
  server_error: 'Something went wrong on our side.',
  invalid_api_key: 'Send a valid admin API key as "Authorization: Bearer <key>"; this one is missing, unknown, expired or revoked.',
  insufficient_scope: 'This admin API key may only read (scope read); changes need a key with scope write.',
  too_many_requests: 'Too many requests with a bad key. Try again later.',
  not_authenticated: 'Sign in first.',
  admin_required: 'This account does not have the admin role.',
  mfa_required: 'The admin console needs a login with a second factor: set one up, then sign in again.',
  reauthentication_required: 'Confirm your password or a code again before making changes.',
  last_admin: 'You are the only active administrator: give another user the admin role before disabling or deleting your own account.',
  not_failed: 'Only failed deliveries can be requeued.',
  no_email_address: 'The user has no email address to send the link to.',
  password_reset_by_code: 'Password reset is by code (ACCOUNT_PASSWORD_RESET_BY_CODE_ENABLED): the user asks for the code themselves.',
  client_exists: 'A client with this id is registered already.',
  public_client: 'A public client has no secret to rotate.',
  private_key_jwt_client: 'This client authenticates with its keys (private_key_jwt): it has no secret.',
};

/** An error as the envelope lists it: a flow's, or one of the http layer's own. */
export type WireError = FieldError | { code: HttpErrorCode; param?: string; message?: string };

export function errorBody(status: number, errors: WireError[]) {
  return {
    status,
    errors: errors.map((e) => ({
      code: e.code,
      message: e.message ?? MESSAGES[e.code],
      ...(e.param ? { param: e.param } : {}),
    })),
  };
}
