import { ConfigError, readOptional, type Env } from './env.js';

/**
 * Which security notices are mailed (ACCOUNT_EMAIL_NOTIFICATIONS). `all`: every notice the
 * reference sends with the setting on; `none`: none, as the reference with it off; `password`:
 * the setting left unset, where only a password changed, set or reset is notified, as this server
 * always did before the setting existed.
 */
export type EmailNotifications = 'all' | 'password' | 'none';

/** TEMPLATES_DIR and the settings that shape every mail. */
export interface TemplateSettings {
  /** A folder whose files override the default templates of the same name (and `<language>/<name>` for one language). */
  dir: string | undefined;
  /** ACCOUNT_EMAIL_SUBJECT_PREFIX: put before every subject as given; unset, `[SITE_NAME] `. */
  emailSubjectPrefix: string | undefined;
  emailNotifications: EmailNotifications;
}

export function readTemplateSettings(env: Env): TemplateSettings {
  return {
    dir: readOptional(env, 'TEMPLATES_DIR'),
    // An empty prefix is a choice (no prefix), so it is read raw, not as unset.
    emailSubjectPrefix: env['ACCOUNT_EMAIL_SUBJECT_PREFIX'],
    emailNotifications: readNotifications(env),
  };
}

function readNotifications(env: Env): EmailNotifications {
  const raw = readOptional(env, 'ACCOUNT_EMAIL_NOTIFICATIONS');
  if (raw === undefined) return 'password';
  const value = raw.trim().toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(value)) return 'all';
  if (['false', '0', 'no', 'off'].includes(value)) return 'none';
  throw new ConfigError(`ACCOUNT_EMAIL_NOTIFICATIONS: expected true or false, got "${raw}"`);
}
