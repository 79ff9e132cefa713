// Which redirect URIs and CORS origins a client may use, as the reference
// matches them (allauth/idp/oidc/internal/clientkit.py): scheme, host, path
// and port exactly (any port on a loopback address, as RFC 8252 section 7.3
// asks for native apps), the registered query a subset of the given one, and,
// for a client that allows wildcards, one `*` standing for one DNS label of
// the host.

function isLoopback(url: URL): boolean {
  return url.protocol === 'http:' && (url.hostname === '127.0.0.1' || url.hostname === '[::1]');
}

function parse(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

/** The registered URI with its `*` made parseable: the label stays a marker the matcher recognises. */
const WILDCARD_LABEL = 'x-wildcard-x';

function parseRegistered(value: string): URL | null {
  return parse(value.replace('*', WILDCARD_LABEL));
}

function hostMatches(given: URL, allowed: URL, wildcards: boolean): boolean {
  if (given.protocol !== allowed.protocol) return false;
  if (wildcards && allowed.hostname.includes(WILDCARD_LABEL)) {
    const [before, after] = allowed.hostname.split(WILDCARD_LABEL) as [string, string];
    const host = given.hostname;
    if (!host.startsWith(before) || !host.endsWith(after) || host.length <= before.length + after.length) return false;
    return !host.slice(before.length, host.length - after.length).includes('.');
  }
  return given.hostname === allowed.hostname;
}

export function redirectUriAllowed(uri: string, allowed: readonly string[], wildcards: boolean): boolean {
  const given = parse(uri);
  if (!given || given.hash) return false;
  return allowed.some((candidate) => {
    const registered = parseRegistered(candidate);
    if (!registered || !hostMatches(given, registered, wildcards)) return false;
    if (registered.pathname !== given.pathname) return false;
    if (!isLoopback(registered) && registered.port !== given.port) return false;
    for (const [key, value] of registered.searchParams) {
      if (!given.searchParams.getAll(key).includes(value)) return false;
    }
    return true;
  });
}

export function originAllowed(origin: string, allowed: readonly string[], wildcards: boolean): boolean {
  const given = parse(origin);
  if (!given) return false;
  return allowed.some((candidate) => {
    const registered = parseRegistered(candidate);
    return registered !== null && hostMatches(given, registered, wildcards) && registered.port === given.port;
  });
}

/** Why a registered URI is refused, or null: wildcards only when allowed, one at most, only in the host. */
export function uriProblem(uri: string, wildcards: boolean): string | null {
  const stars = uri.split('*').length - 1;
  if (stars > 0 && !wildcards) return `"${uri}": a wildcard (*) needs --allow-uri-wildcards`;
  if (stars > 1) return `"${uri}": at most one wildcard (*)`;
  const parsed = parseRegistered(uri);
  if (!parsed || !/^[a-z][a-z0-9+.-]*:$/.test(parsed.protocol)) return `"${uri}": not an absolute URI`;
  if (parsed.hash) return `"${uri}": no fragment allowed`;
  if (stars === 1 && !parsed.hostname.includes(WILDCARD_LABEL)) return `"${uri}": a wildcard is only allowed in the host`;
  return null;
}
