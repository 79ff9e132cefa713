// Providers are reached over HTTPS, except on this machine's own loopback
// interface (a local IdP in development or tests): plain HTTP is allowed
// there and nowhere else.

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

function isLoopback(url: URL): boolean {
  return LOOPBACK_HOSTS.has(url.hostname) || /^127\.\d+\.\d+\.\d+$/.test(url.hostname);
}

/** Whether a provider endpoint may be used: https anywhere, http on loopback only. */
export function isAcceptableEndpoint(url: URL): boolean {
  return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback(url));
}
