// Which redirect URIs and CORS origins a client may use, as the reference
// matches them (allauth/idp/oidc/internal/clientkit.py): scheme, host, path
// and port exactly (any port on a loopback address, as RFC 8252 section 7.3
// asks for native apps), the registered query a subset of the given one, and,
// for a client that allows wildcards, one `*` standing for the leftmost DNS
// label of the host. Stricter than the reference: a URI with userinfo never
// matches nor registers, and a wildcard must sit under a registrable domain.

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

/**
 * `https://evil@wiki.example.com/cb` goes to wiki.example.com, but reads as
 * evil's to a person and to lax parsers; an empty userinfo (`https://@host`)
 * is dropped by URL, so the raw authority is read too.
 */
function hasUserinfo(raw: string, url: URL): boolean {
  return url.username !== '' || url.password !== '' || /^[a-z][a-z0-9+.-]*:\/\/[^/?#\\]*@/i.test(raw);
}

/** The registered URI with its `*` made parseable: the label stays a marker the matcher recognises. */
const WILDCARD_LABEL = 'x-wildcard-x';

function parseRegistered(value: string): URL | null {
  return parse(value.replace('*', WILDCARD_LABEL));
}

/**
 * Second-level labels under which a two-letter country code is a public
 * suffix (co.uk, com.au, co.jp, ne.jp, ...): no public-suffix list is
 * shipped, so this pattern stands in for its most common entries.
 */
const PUBLIC_SECOND_LEVEL = new Set(['ac', 'co', 'com', 'edu', 'gov', 'go', 'ltd', 'ne', 'net', 'or', 'org', 'plc']);

/** Why a wildcard host is refused, or null: the `*` is the whole leftmost label, above at least a registrable domain. */
function wildcardHostProblem(hostname: string): string | null {
  if (hostname === WILDCARD_LABEL) return 'a wildcard host needs a registrable domain below it (https://*.example.com/cb)';
  if (!hostname.startsWith(`${WILDCARD_LABEL}.`)) return 'a wildcard must be the whole leftmost label of the host (https://*.example.com/cb)';
  const labels = hostname.slice(WILDCARD_LABEL.length + 1).split('.');
  if (labels.includes('')) return 'an empty label in the host';
  if (labels.length < 2) return 'a wildcard must sit under a registrable domain, not a top-level domain';
  const [second, top] = labels as [string, string];
  if (labels.length === 2 && /^[a-z]{2}$/.test(top) && PUBLIC_SECOND_LEVEL.has(second)) return `a wildcard must sit under a registrable domain, not the public suffix ${second}.${top}`;
  return null;
}

function hostMatches(given: URL, allowed: URL, wildcards: boolean): boolean {
  if (given.protocol !== allowed.protocol) return false;
  if (wildcards && allowed.hostname.includes(WILDCARD_LABEL)) {
    // A stored URI from before these rules (or imported) that breaks them matches nothing.
    if (wildcardHostProblem(allowed.hostname) !== null) return false;
    const parent = allowed.hostname.slice(WILDCARD_LABEL.length);
    const host = given.hostname;
    return host.endsWith(parent) && host.length > parent.length && !host.slice(0, -parent.length).includes('.');
  }
  return given.hostname === allowed.hostname;
}

export function redirectUriAllowed(uri: string, allowed: readonly string[], wildcards: boolean): boolean {
  const given = parse(uri);
  if (!given || given.hash || hasUserinfo(uri, given)) return false;
  return allowed.some((candidate) => {
    const registered = parseRegistered(candidate);
    if (!registered || hasUserinfo(candidate, registered) || !hostMatches(given, registered, wildcards)) return false;
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
  if (!given || hasUserinfo(origin, given)) return false;
  return allowed.some((candidate) => {
    const registered = parseRegistered(candidate);
    return registered !== null && !hasUserinfo(candidate, registered) && hostMatches(given, registered, wildcards) && registered.port === given.port;
  });
}

/** Why a registered URI is refused, or null: no userinfo; wildcards only when allowed, one at most, as the leftmost label of the host. */
export function uriProblem(uri: string, wildcards: boolean): string | null {
  const stars = uri.split('*').length - 1;
  if (stars > 0 && !wildcards) return `"${uri}": a wildcard (*) needs --allow-uri-wildcards`;
  if (stars > 1) return `"${uri}": at most one wildcard (*)`;
  const parsed = parseRegistered(uri);
  if (!parsed || !/^[a-z][a-z0-9+.-]*:$/.test(parsed.protocol)) return `"${uri}": not an absolute URI`;
  if (parsed.hash) return `"${uri}": no fragment allowed`;
  if (hasUserinfo(uri, parsed)) return `"${uri}": no user name or password (userinfo) allowed`;
  if (stars === 1 && !parsed.hostname.includes(WILDCARD_LABEL)) return `"${uri}": a wildcard is only allowed in the host`;
  const wildcardProblem = stars === 1 ? wildcardHostProblem(parsed.hostname) : null;
  return wildcardProblem && `"${uri}": ${wildcardProblem}`;
}
