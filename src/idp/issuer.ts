// With IDP_OIDC_ISSUER unset (development) the issuer is the origin a
// request came to, as in the reference, but only for a Host that names a
// host: a DNS name, an IPv4 address or a bracketed IPv6 one, and a port.
// Anything else (none at all over HTTP/1.0, `%%%`, a user part) would be an
// issuer oidc-provider refuses, and must not reach it.

const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const HOST = new RegExp(`^(?:${LABEL}(?:\\.${LABEL})*|\\[[0-9A-Fa-f:.]+\\])(?::[0-9]{1,5})?$`);

/** The issuer for a request to `host` over `protocol`, or null when the host names no host. */
export function requestIssuer(protocol: string, host: string | undefined): string | null {
  if (!host || host.length > 255 || !HOST.test(host)) return null;
  const issuer = `${protocol}://${host}`;
  return URL.canParse(issuer) ? issuer : null;
}
