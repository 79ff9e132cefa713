// Talking to the server: the browser login (AUTH) and the admin routes
// behind the console's session (API), JSON in, the envelope out.
import { t } from './i18n.js';

export const AUTH = '/_service/browser/v1';
export const API = '/console/api/v1';

function csrfToken() {
  const match = /(?:^|;\s*)admin_csrftoken=([^;]+)/.exec(document.cookie);
  return match ? decodeURIComponent(match[1]) : '';
}

/** Fired when the admin routes answer that nobody is signed in: the session ended elsewhere or expired. */
export const SIGNED_OUT = 'console:signed-out';

/** `method url [body]` → {http, body}; a network failure is {http: 0}. */
export async function call(method, url, body) {
  const headers = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET') headers['x-csrftoken'] = csrfToken();
  let response;
  try {
    response = await fetch(url, { method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    return { http: 0, body: { status: 0 } };
  }
  let parsed = null;
  try {
    parsed = await response.json();
  } catch {
    parsed = { status: response.status };
  }
  if (url.startsWith(API) && response.status === 401 && parsed?.errors?.[0]?.code === 'not_authenticated') dispatchEvent(new Event(SIGNED_OUT));
  return { http: response.status, body: parsed };
}

/** A GET of the admin routes: the answer's data, or throws an Error carrying the envelope's message. */
export async function read(path) {
  const result = await call('GET', `${API}${path}`);
  if (result.http !== 200) throw new Error(errorText(result.body));
  return result.body;
}

/** The messages of an error envelope, as one sentence. */
export const errorText = (body) => (body?.errors ?? []).map((e) => e.message).join(' ') || t('request_failed', { status: body?.status || '?' });

/** The errors of an envelope by the param they name ('' for none), for showing each next to its input. */
export function errorsByParam(body) {
  const byParam = {};
  for (const e of body?.errors ?? []) (byParam[e.param ?? ''] ??= []).push(e.message);
  if (Object.keys(byParam).length === 0) byParam[''] = [errorText(body)];
  return byParam;
}
