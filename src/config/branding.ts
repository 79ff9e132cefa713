import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ConfigError, readOptional, type Env } from './env.js';
import { readLogoFile, readStylesheetFile, type BrandFile } from './brand-files.js';

export type { BrandFile };

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
  /** URL of an extra stylesheet server pages and the console load after their own: absolute, or a path on this server. */
  stylesheetUrl: string | undefined;
  /** BRANDING_LOGO_FILE, read at start: logoUrl is then its address under BRAND_PATH. */
  logoFile?: BrandFile;
  /** BRANDING_STYLESHEET_FILE, likewise for stylesheetUrl. */
  stylesheetFile?: BrandFile;
}

/** Where the public listener serves the brand's files: `${BRAND_PATH}/logo.png`, `${BRAND_PATH}/style.css`. */
export const BRAND_PATH = '/_service/brand';

/** What the URLs of served files are built from. */
export interface BrandingContext {
  production: boolean;
  /** PUBLIC_URL (or the fixed issuer); see public-url.ts. */
  publicUrl: string | undefined;
  host: string;
  port: number;
  /** Where a choice that works but may disappoint is noted (config.warnings). */
  warnings: string[];
}

const HEX = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

/** The keys of BRANDING_FILE, each the setting's name without its prefix. */
const FILE_KEYS = ['logo_url', 'logo_file', 'primary_color', 'primary_text_color', 'stylesheet_url', 'stylesheet_file'] as const;
type Key = (typeof FILE_KEYS)[number];

/** A value and the name a message about it gives: the variable, or the key of BRANDING_FILE. */
interface Given {
  name: string;
  value: string | undefined;
}

/** Reads each key from its BRANDING_* variable, else from BRANDING_FILE (whose relative paths are its folder's). */
function sources(env: Env): (key: Key) => Given {
  const path = readOptional(env, 'BRANDING_FILE');
  let file: Record<string, unknown> = {};
  if (path !== undefined) {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      throw new ConfigError(`BRANDING_FILE: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    }
    try {
      file = JSON.parse(text);
    } catch {
      throw new ConfigError(`BRANDING_FILE: ${path} is not JSON`);
    }
    if (typeof file !== 'object' || file === null || Array.isArray(file)) throw new ConfigError(`BRANDING_FILE: ${path} must hold a JSON object`);
    for (const [key, value] of Object.entries(file)) {
      if (!(FILE_KEYS as readonly string[]).includes(key)) throw new ConfigError(`BRANDING_FILE: unknown key "${key}" in ${path}; allowed: ${FILE_KEYS.join(', ')}`);
      if (typeof value !== 'string') throw new ConfigError(`BRANDING_FILE: "${key}" in ${path} must be a string`);
    }
  }
  return (key) => {
    const name = `BRANDING_${key.toUpperCase()}`;
    const fromEnv = readOptional(env, name);
    if (fromEnv !== undefined || path === undefined || file[key] === undefined || file[key] === '') return { name, value: fromEnv };
    const value = file[key] as string;
    return { name: `${key} in BRANDING_FILE`, value: key.endsWith('_file') ? resolve(dirname(path), value) : value };
  };
}

function color(given: Given, fallback: string): string {
  const value = given.value ?? fallback;
  if (!HEX.test(value)) throw new ConfigError(`${given.name}: "${value}" is not a colour such as #1a73e8`);
  return value;
}

/** The base the URLs of served files and of paths hang from: PUBLIC_URL, else (development only) the listen address. */
function baseUrl(context: BrandingContext, needer: string): string {
  if (context.publicUrl !== undefined) return context.publicUrl;
  if (context.production) {
    throw new ConfigError(`${needer}: PUBLIC_URL is required when NODE_ENV=production, to give mails and pages an absolute URL (the https address of this server, e.g. https://auth.example.com)`);
  }
  const host = ['0.0.0.0', '::', ''].includes(context.host) ? 'localhost' : context.host.includes(':') ? `[${context.host}]` : context.host;
  return `http://${host}:${context.port}`;
}

/**
 * An http(s) URL (https in production), or a path: the logo's made absolute
 * on this server's public URL, as a mail needs it; the stylesheet's kept as
 * it is, since only pages of this server load it.
 */
function url(given: Given, context: BrandingContext, absolute: boolean): string | undefined {
  const raw = given.value;
  if (raw === undefined) return undefined;
  if (raw.startsWith('/')) {
    const base = absolute ? baseUrl(context, given.name) : 'http://path.invalid';
    const resolved = new URL(raw, base);
    // "//host/..." and "/\\host/..." would name another host, not a path.
    if (resolved.origin !== new URL(base).origin) throw new ConfigError(`${given.name}: "${raw}" names another host; give a path on this one or a full URL`);
    if (absolute) return resolved.href;
    // Serialised as a URL would be: quotes and spaces encoded.
    return `${resolved.pathname}${resolved.search}`;
  }
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${given.name}: expected an https URL or a path starting with /, got "${raw}"`);
  }
  const allowed = context.production ? ['https:'] : ['https:', 'http:'];
  if (!allowed.includes(parsed.protocol)) {
    throw new ConfigError(`${given.name}: expected ${context.production ? 'an https URL when NODE_ENV=production' : 'an http(s) URL'} or a path starting with /, got "${raw}"`);
  }
  if (parsed.username || parsed.password) throw new ConfigError(`${given.name}: a URL with a user name or password is not allowed`);
  return parsed.href;
}

/** A URL setting or a file setting for the same thing, never both. */
function either(urlGiven: Given, fileGiven: Given): void {
  if (urlGiven.value !== undefined && fileGiven.value !== undefined) {
    throw new ConfigError(`${fileGiven.name}: set either it or ${urlGiven.name}, not both`);
  }
}

/**
 * The address of a served file. A page of this server finds the stylesheet
 * by its path when no public URL is known (a development server reached as
 * localhost or 127.0.0.1 alike); a mail needs the logo's absolute URL.
 */
function served(file: BrandFile, context: BrandingContext, needer: string, absolute: boolean): string {
  const path = `${BRAND_PATH}/${file.name}?v=${file.version}`;
  return absolute || context.publicUrl !== undefined ? `${baseUrl(context, needer)}${path}` : path;
}

export function readBrandingSettings(env: Env, context: BrandingContext): BrandingSettings {
  const read = sources(env);
  const logo = { url: read('logo_url'), file: read('logo_file') };
  const stylesheet = { url: read('stylesheet_url'), file: read('stylesheet_file') };
  either(logo.url, logo.file);
  either(stylesheet.url, stylesheet.file);
  const logoFile = logo.file.value === undefined ? undefined : readLogoFile(logo.file.name, logo.file.value);
  if (logoFile?.contentType === 'image/svg+xml' || /\.svg(?:[?#]|$)/i.test(logo.url.value ?? '')) {
    context.warnings.push(`${logoFile ? logo.file.name : logo.url.name}: an SVG logo shows on pages and in the console, but Gmail and Outlook show no SVG in mails; a PNG shows everywhere`);
  }
  const stylesheetFile = stylesheet.file.value === undefined ? undefined : readStylesheetFile(stylesheet.file.name, stylesheet.file.value);
  return {
    logoUrl: logoFile ? served(logoFile, context, logo.file.name, true) : url(logo.url, context, true),
    primaryColor: color(read('primary_color'), '#2b59c3'),
    primaryTextColor: color(read('primary_text_color'), '#ffffff'),
    stylesheetUrl: stylesheetFile ? served(stylesheetFile, context, stylesheet.file.name, false) : url(stylesheet.url, context, false),
    ...(logoFile && { logoFile }),
    ...(stylesheetFile && { stylesheetFile }),
  };
}
