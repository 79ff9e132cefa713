import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { ConfigError } from './env.js';

/** A file of the brand, read once at start and served by the server itself. */
export interface BrandFile {
  /** Its name under the brand's folder: logo.png, logo.svg, logo.jpg, logo.webp, style.css. */
  name: string;
  contentType: string;
  body: Buffer;
  /** A digest of the content: the ETag, and the `v` of the URL, so that a new file is a new URL. */
  version: string;
}

// Mails carry the logo to every reader: a small one, as a mail client would
// want it anyway, and a stylesheet is text of a modest size.
export const LOGO_MAX_BYTES = 512 * 1024;
export const STYLESHEET_MAX_BYTES = 256 * 1024;

const LOGO_TYPES = {
  png: { ext: 'png', contentType: 'image/png', names: ['.png'] },
  jpeg: { ext: 'jpg', contentType: 'image/jpeg', names: ['.jpg', '.jpeg'] },
  webp: { ext: 'webp', contentType: 'image/webp', names: ['.webp'] },
  svg: { ext: 'svg', contentType: 'image/svg+xml', names: ['.svg'] },
} as const;

function readLimited(setting: string, path: string, max: number): Buffer {
  let body: Buffer;
  try {
    body = readFileSync(path);
  } catch (error) {
    throw new ConfigError(`${setting}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  if (body.length === 0) throw new ConfigError(`${setting}: ${path} is empty`);
  if (body.length > max) throw new ConfigError(`${setting}: ${path} has ${body.length} bytes, more than the ${max} a brand file may have`);
  return body;
}

function utf8(body: Buffer): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    return null;
  }
}

/**
 * An SVG document: after an optional byte order mark, XML declaration,
 * comments and doctype, the root element is <svg>. Text that merely holds
 * "<svg" somewhere (an HTML page) is not one.
 */
function isSvg(body: Buffer): boolean {
  const text = utf8(body);
  if (text === null) return false;
  const rest = text.replace(/^\uFEFF/, '').replace(/^(?:\s+|<\?xml[^>]*\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>]*>)*/i, '');
  return /^<svg[\s>]/.test(rest);
}

/** The image type the content is, by its first bytes (never by its name). */
function sniffImage(body: Buffer): keyof typeof LOGO_TYPES | null {
  if (body.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (body[0] === 0xff && body[1] === 0xd8 && body[2] === 0xff) return 'jpeg';
  if (body.subarray(0, 4).toString('latin1') === 'RIFF' && body.subarray(8, 12).toString('latin1') === 'WEBP') return 'webp';
  return isSvg(body) ? 'svg' : null;
}

function version(body: Buffer): string {
  return createHash('sha256').update(body).digest('base64url').slice(0, 16);
}

/** BRANDING_LOGO_FILE: a PNG, JPEG, WebP or SVG image, checked by its content. */
export function readLogoFile(setting: string, path: string): BrandFile {
  const body = readLimited(setting, path, LOGO_MAX_BYTES);
  const kind = sniffImage(body);
  if (kind === null) throw new ConfigError(`${setting}: ${path} is not a PNG, JPEG, WebP or SVG image`);
  const type = LOGO_TYPES[kind];
  const named = extname(path).toLowerCase();
  // A name that says another type is a mistake worth stopping for (logo.png holding a JPEG).
  if (named && Object.values(LOGO_TYPES).some((t) => (t.names as readonly string[]).includes(named)) && !(type.names as readonly string[]).includes(named)) {
    throw new ConfigError(`${setting}: ${path} is named ${named} but holds a ${kind.toUpperCase()} image`);
  }
  return { name: `logo.${type.ext}`, contentType: type.contentType, body, version: version(body) };
}

/** BRANDING_STYLESHEET_FILE: UTF-8 text. */
export function readStylesheetFile(setting: string, path: string): BrandFile {
  const body = readLimited(setting, path, STYLESHEET_MAX_BYTES);
  const text = utf8(body);
  if (text === null || text.includes('\0')) throw new ConfigError(`${setting}: ${path} is not UTF-8 text`);
  if (/^\s*</.test(text)) throw new ConfigError(`${setting}: ${path} looks like markup, not a stylesheet`);
  return { name: 'style.css', contentType: 'text/css; charset=utf-8', body, version: version(body) };
}
