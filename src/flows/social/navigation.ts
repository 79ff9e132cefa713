import type { Config } from '../../config/config.js';

// Where the redirect flow may send a browser, and how errors travel there:
// as query parameters, never as JSON, since the browser is navigating.

/** `url` with `params` added to its query; a relative URL stays relative. */
export function withQuery(url: string, params: Record<string, string>): string {
  const absolute = /^[a-z][a-z0-9+.-]*:/i.test(url);
  const parsed = new URL(url, 'http://relative.invalid');
  for (const [name, value] of Object.entries(params)) parsed.searchParams.set(name, value);
  return absolute ? parsed.toString() : `${parsed.pathname}${parsed.search}${parsed.hash}`;
}

/** The hosts a callback_url may name besides the request's own: those of the frontend URLs. */
export function frontendHosts(config: Config): Set<string> {
  return new Set(Object.values(config.frontendUrls).map((template) => new URL(template.replace('{key}', 'key')).host));
}

/**
 * Whether a callback_url is safe to send a browser to after login (no open
 * redirect): a path on this host, or an http(s) URL on this host or the
 * frontend's. Like Django's check, protocol-relative and backslash tricks fail.
 */
export function isSafeCallbackUrl(url: string, requestHost: string, allowedHosts: Set<string>): boolean {
  if (url.length === 0 || url.length > 2048 || /[\\\u0000-\u001f\s]/.test(url)) return false;
  if (url.startsWith('/')) return !url.startsWith('//');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  return (parsed.protocol === 'https:' || parsed.protocol === 'http:') && (parsed.host === requestHost || allowedHosts.has(parsed.host));
}

/** The reference's landing for errors it cannot send to a callback_url (bad or replayed state). */
export function loginErrorUrl(config: Config, process: string): string {
  return withQuery(config.frontendUrls.socialaccount_login_error, { error: 'unknown', error_process: process });
}
