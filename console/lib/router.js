// Where the page is: the hash holds the screen's path and its query
// (#/users?q=ann&active=true), so that a reload, a link or the back button
// returns to the same screen with the same filters and page.
import { useEffect, useState } from '../vendor/hooks.js';

/** {path, query} of the current hash; query is a plain object of strings. */
export function currentPlace() {
  const hash = location.hash.replace(/^#\/?/, '');
  const [path, search = ''] = hash.split('?');
  return { path: path.replace(/\/$/, ''), query: Object.fromEntries(new URLSearchParams(search)) };
}

/** The hash of a path and query (empty values left out). */
export function href(path, query = {}) {
  const search = new URLSearchParams(Object.entries(query).filter(([, v]) => v !== undefined && v !== null && v !== ''));
  // Commas stay readable (type=a,b): they need no escaping in a fragment.
  const text = search.toString().replace(/%2C/gi, ',');
  return `#/${path}${text ? `?${text}` : ''}`;
}

/** Goes to a path and query; `replace` keeps the browser's history as it was (a filter's change, not a new page). */
export function navigate(path, query, { replace = false } = {}) {
  const target = href(path, query);
  if (replace) history.replaceState(null, '', target);
  else location.hash = target;
  if (replace) dispatchEvent(new HashChangeEvent('hashchange'));
}

/** The current place, kept up to date. */
export function usePlace() {
  const [place, setPlace] = useState(currentPlace);
  useEffect(() => {
    const onChange = () => setPlace(currentPlace());
    addEventListener('hashchange', onChange);
    return () => removeEventListener('hashchange', onChange);
  }, []);
  return place;
}

/**
 * The route of `routes` whose pattern matches `path` ("users/:id" matches
 * "users/12", a `:name` segment standing for digits or any one segment):
 * {route, params}, or null.
 */
export function match(routes, path) {
  const segments = path.split('/').filter(Boolean);
  for (const route of routes) {
    const pattern = route.path.split('/').filter(Boolean);
    if (pattern.length !== segments.length) continue;
    const params = {};
    if (pattern.every((p, i) => (p.startsWith(':') ? ((params[p.slice(1)] = decodeURIComponent(segments[i])), true) : p === segments[i]))) return { route, params };
  }
  return null;
}
