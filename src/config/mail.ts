import { parseSmtpUrl } from './smtp-url.js';
import { ConfigError, readOptional, readString, type Env } from './env.js';

export interface MailSettings {
  /** Undefined: the console transport (mails go to the log). */
  smtpUrl: string | undefined;
  from: string;
}

// EMAIL_BACKEND takes Django's name; its class paths are accepted too.
const BACKENDS: Record<string, 'smtp' | 'console'> = {
  smtp: 'smtp',
  console: 'console',
  'django.core.mail.backends.smtp.emailbackend': 'smtp',
  'django.core.mail.backends.console.emailbackend': 'console',
};

/**
 * SMTP when SMTP_URL is set, the console otherwise. In production the
 * console must be chosen explicitly (EMAIL_BACKEND=console): a deployment
 * that forgot SMTP_URL would otherwise start and mail nobody.
 */
export function readMailSettings(env: Env, production: boolean): MailSettings {
  const smtpUrl = readOptional(env, 'SMTP_URL');
  const rawBackend = readOptional(env, 'EMAIL_BACKEND');
  const backend = rawBackend === undefined ? undefined : BACKENDS[rawBackend.trim().toLowerCase()];
  if (rawBackend !== undefined && backend === undefined) {
    throw new ConfigError(`EMAIL_BACKEND: expected smtp or console, got "${rawBackend}"`);
  }
  if (backend === 'smtp' && smtpUrl === undefined) throw new ConfigError('SMTP_URL is required when EMAIL_BACKEND=smtp');
  if (backend === 'console' && smtpUrl !== undefined) throw new ConfigError('EMAIL_BACKEND=console and SMTP_URL are both set; choose one');
  if (production && smtpUrl === undefined && backend !== 'console') {
    throw new ConfigError('SMTP_URL is required when NODE_ENV=production (or set EMAIL_BACKEND=console to log mails without their links and codes)');
  }
  if (smtpUrl) parseSmtpUrl(smtpUrl);
  return { smtpUrl, from: readString(env, 'DEFAULT_FROM_EMAIL', 'webmaster@localhost') };
}
