import { ConfigError, readOptional, readString, type Env } from './env.js';

/**
 * BRANDING_*: the look mails, server pages and the console share. The site's name is
 * SITE_NAME (config.siteName).
 */
export interface BrandingSettings {
  /** Absolute URL of the logo mails and pages show, or none (the site's name stands alone). */
  logoUrl: string | undefined;
  /** Buttons and links. */
  primaryColor: string;
  /** Text on the primary colour. */
  primaryTextColor: string;
  /** URL of an extra stylesheet server pages and the console load after their own. */
  stylesheetUrl: string | undefined;
}

const HEX = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

function readColor(env: Env, name: string, fallback: string): string {
  const value = readString(env, name, fallback);
  if (!HEX.test(value)) throw new ConfigError(`${name}: "${value}" is not a colour such as #1a73e8`);
  return value;
}

export function readBrandingSettings(env: Env): BrandingSettings {
  return {
    logoUrl: readOptional(env, 'BRANDING_LOGO_URL'),
    primaryColor: readColor(env, 'BRANDING_PRIMARY_COLOR', '#2b59c3'),
    primaryTextColor: readColor(env, 'BRANDING_PRIMARY_TEXT_COLOR', '#ffffff'),
    stylesheetUrl: readOptional(env, 'BRANDING_STYLESHEET_URL'),
  };
}
