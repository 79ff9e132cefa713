import type { Config } from '../../config/config.js';

// Where the redirect flow may send a browser, and how errors travel there:
// as query parameters, never as JSON, since the browser is navigating.

/** What relative URLs are resolved against, to normalise them as a browser would. */
const RELATIVE_BASE = 'http://relative.invalid';

/** The part of `url` a path-absolute reference keeps: path, query and fragment. */
function pathOf(url: URL): string {
  return `${url.pathname}${url.search}${url.hash}`;
}

/** `url` with `params` added to its query; a relative URL stays relative. */
export function withQuery(url: string, params: Record<string, string>): string {
  const absolute = /^[a-z][a-z0-9+.-]*:/i.test(url);
  const parsed = new URL(url, RELATIVE_BASE);
  for (const [name, value] of Object.entries(params)) parsed.searchParams.set(name, value);
  return absolute ? parsed.toString() : pathOf(parsed);
}

/** The hosts a callback_url may name besides the request's own: those of the frontend URLs. */
export function frontendHosts(config: Config): Set<string> {
  return new Set(Object.values(config.frontendUrls).map((template) => new URL(template.replace('{key}', 'key')).host));
}

/**
 * A callback_url in the form it is stored and sent in from then on, or null
 * when it is not safe to send a browser to after login (no open redirect):
 * a path on this host, or an http(s) URL on this host or the frontend's. The
 * check is made on the normalised form, since that is what the browser gets:
 * `/..//evil.example` is a path, but normalises to `//evil.example`, another host.
 */
export function safeCallbackUrl(url: string, requestHost: string, allowedHosts: Set<string>): string | null {
  // Never in a legitimate URL; the URL parser would drop or rewrite them.
  if (url.length === 0 || url.length > 2048 || /[\\\u0000-\u001f\u007f\s]/.test(url)) return null;
  const relative = url.startsWith('/');
  let parsed: URL;
  try {
    parsed = relative ? new URL(url, RELATIVE_BASE) : new URL(url);
  } catch {
    return null;
  }
  if (relative) {
    const path = pathOf(parsed);
    // Still a path here once normalised, and again as the browser reads the normalised form (`//x` names host x).
    const again = new URL(path, RELATIVE_BASE);
    return parsed.origin === RELATIVE_BASE && again.origin === RELATIVE_BASE && pathOf(again) === path ? path : null;
  }
  const safe = (parsed.protocol === 'https:' || parsed.protocol === 'http:') && (parsed.host === requestHost || allowedHosts.has(parsed.host));
  return safe ? parsed.href : null;
}

/** The reference's landing for errors it cannot send to a callback_url (bad or replayed state). */
export function loginErrorUrl(config: Config, process: string): string {
  return withQuery(config.frontendUrls.socialaccount_login_error, { error: 'unknown', error_process: process });
}
