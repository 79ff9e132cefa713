import type { FieldError } from '../flows/outcome.js';
import { errorBody } from '../http/messages.js';
import { createTranslator, type Translator } from '../i18n/catalog.js';
import type { MessageRef } from '../i18n/message.js';

// The CLI speaks English, as its own messages do: the catalogue's English, for the API's codes it passes on.
let english: Translator | undefined;
const englishTranslator = () => (english ??= createTranslator({ languages: ['en'], defaultLanguage: 'en' }));

/** A message chosen by a flow (flows/admin), in English. */
export function englishText(message: MessageRef): string {
  return englishTranslator().t('en', `api.${message.key}`, message.values);
}

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
    return new CliError(errorBody(400, fields, englishTranslator(), 'en').errors);
  }
}
