import type { FieldError } from '../flows/outcome.js';
import { errorBody } from '../http/messages.js';

/** The CLI's own error codes, beside the API's field codes it passes on (invalid, email_taken, ...). */
export type CliErrorCode =
  | 'config_error'
  | 'database_error'
  | 'migrations_pending'
  | 'not_found'
  | 'required'
  | 'password_mismatch'
  | 'confirmation_required'
  | 'cancelled'
  | 'source_error'
  | 'source_mismatch'
  | 'not_failed'
  | 'invalid'
  | 'exists'
  | 'public_client'
  | 'private_key_jwt_client';

export interface CliErrorItem {
  code: string;
  message: string;
  param?: string;
}

/** An expected failure: printed as its items (with --json as {"errors": [...]}), exit status 1. */
export class CliError extends Error {
  override name = 'CliError';

  private constructor(readonly errors: CliErrorItem[]) {
    super(errors.map((e) => e.message).join(' '));
  }

  static of(code: CliErrorCode, message: string, param?: string): CliError {
    return new CliError([{ code, message, ...(param ? { param } : {}) }]);
  }

  /** The same codes and texts the API answers with for the same mistakes. */
  static fromFields(fields: FieldError[]): CliError {
    return new CliError(errorBody(400, fields).errors);
  }
}
