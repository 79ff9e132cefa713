import { ConfigError, readJsonObject, readOptional, type Env } from './env.js';

// Defaults meant for a developer's machine must not carry a production
// deployment: a frontend at localhost:3000 in every mailed link, or
// verification codes printed to a log nobody reads. With NODE_ENV=production
// each must be set, or the console chosen explicitly.

const FRONTEND_URL_KEYS = ['account_confirm_email', 'account_reset_password', 'account_reset_password_from_key', 'account_signup'];

export function checkProductionSettings(env: Env, usesPhone: boolean): void {
  const templates = readJsonObject(env, 'HEADLESS_FRONTEND_URLS') ?? {};
  if (readOptional(env, 'FRONTEND_URL') === undefined && !FRONTEND_URL_KEYS.every((key) => key in templates)) {
    throw new ConfigError('FRONTEND_URL is required when NODE_ENV=production (or every key of HEADLESS_FRONTEND_URLS)');
  }
  if (usesPhone && readOptional(env, 'SMS_BACKEND') === undefined) {
    throw new ConfigError('SMS_BACKEND is required when NODE_ENV=production and phone numbers are in use (webhook, twilio, or console to log messages without their codes)');
  }
}
