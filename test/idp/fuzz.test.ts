import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase } from '../support/server.js';
import { adminUrl, newKey } from '../admin/support.js';
import { IDP_ENV, REDIRECT_URI, loggedInBrowser, registerClient } from './support.js';
import { IDP_PATHS, PROVIDER_PATHS } from '../../src/idp/paths.js';
import { adminEndpoints } from '../../src/http/admin/routes/index.js';

// Issue 33 item 5: malformed requests, as a fuzzer sends them, over every
// path of the OpenID provider (its own, the interaction pages, the consent
// API) and every route the admin API declares. None may answer a 5xx, and
// every answer is our envelope, OAuth's JSON error, an HTML page or a
// redirect: never an empty or plain-text body. A seeded PRNG keeps the set
// the same on every run; a failure prints the request that caused it.

const SEED = 0x33_05;
const REQUESTS = 1000;
const IN_FLIGHT = 8;

/** mulberry32: small, seedable, good enough to pick among cases. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Raw text for a URL: `%` alone, broken escapes, NUL, control and non-ASCII characters, long runs. */
const JUNK = ['%', '%%', '%E0%A4%A', '%00', 'a%00b', '%0d%0aX-Injected:%201', '..', '%2e%2e%2f', '%2F', '%C0%AF', '%FF%FE', '😀', '%F0%9F%98%80', 'ä', '\u202e', '<script>', "'", '"', '`', '{}', '[]', 'null', '0', '-1', '1e999', '99999999999999999999', ' ', '+', '&', '=', '#', ';', 'x'.repeat(3000), '%41'.repeat(500), ''];
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'];
const PARAMS = ['client_id', 'client_secret', 'redirect_uri', 'response_type', 'response_mode', 'scope', 'state', 'nonce', 'code', 'code_verifier', 'code_challenge', 'code_challenge_method', 'grant_type', 'refresh_token', 'token', 'token_type_hint', 'device_code', 'user_code', 'xsrf', 'confirm', 'abort', 'prompt', 'max_age', 'id_token_hint', 'post_logout_redirect_uri', 'logout', 'request', 'request_uri', 'claims', 'ui_locales', 'acr_values', 'login_hint', 'resource', 'decision', 'csrf', 'action', 'limit', 'cursor', 'q', 'type', 'email', 'name', 'id', 'active', 'after', 'before'];
const CONTENT_TYPES = ['application/x-www-form-urlencoded', 'application/json', 'application/json; charset=utf-16', 'text/plain', 'multipart/form-data; boundary=x', 'application/xml', '', 'x/y; q=%'];

interface Case {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

interface Known {
  base: string;
  admin: string;
  adminKey: string;
  client: { id: string; secret: string };
  uid: string;
  /** The provider's cookies of a started authorization, and our browser session's. */
  cookies: string[];
}

function cases(known: Known): Case[] {
  const random = prng(SEED);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const chance = (p: number) => random() < p;
  const word = () => (chance(0.15) ? pick([known.client.id, known.uid, '1', 'abc']) : pick(JUNK));

  const providerPaths = [...PROVIDER_PATHS, `${IDP_PATHS.authorization}/:uid`, `${IDP_PATHS.code_verification}/:uid`, `${IDP_PATHS.interaction}/:uid`, `${IDP_PATHS.interaction}/:uid/consent`, '/_service/browser/v1/idp/oidc/consent/:uid'];
  // Every route the admin API declares, its parameters to be filled with junk.
  const adminPaths = adminEndpoints.map((e) => `/admin/v1${e.path}`);

  const fill = (path: string) => path.replace(/:[a-z_]+/g, () => word()) + (chance(0.2) ? `/${word()}` : '');
  const query = () =>
    Array.from({ length: Math.floor(random() * 5) }, () => {
      if (chance(0.1)) return word();
      return `${chance(0.9) ? pick(PARAMS) : word()}=${word()}`;
    }).join('&');
  const value = (): unknown => pick<() => unknown>([word, () => random() * 1e6, () => null, () => true, () => [word()], () => ({ [word()]: word() }), () => JSON.parse('{"a":'.repeat(50) + '1' + '}'.repeat(50))])();

  function body(type: string): string | undefined {
    if (chance(0.2)) return undefined;
    if (type.startsWith('application/json')) {
      if (chance(0.2)) return pick(['{', '[1,', '"x"', '1', 'null', '{"a":\u0000}', '\u{feff}{}']);
      return JSON.stringify(Object.fromEntries(Array.from({ length: 1 + Math.floor(random() * 4) }, () => [chance(0.8) ? pick(PARAMS) : word(), value()])));
    }
    if (type === 'application/x-www-form-urlencoded' || chance(0.3)) return query();
    return word();
  }

  function headers(base: string, admin: boolean): Record<string, string> {
    const h: Record<string, string> = {};
    if (admin) {
      if (chance(0.8)) h.authorization = `Bearer ${known.adminKey}`;
      else if (chance(0.5)) h.authorization = `Bearer ${word().replace(/[^\x21-\x7e]/g, '')}`;
    } else if (chance(0.3)) {
      const secret = chance(0.3) ? known.client.secret : word();
      h.authorization = chance(0.8) ? `Basic ${Buffer.from(`${chance(0.7) ? known.client.id : word()}:${secret}`).toString(chance(0.9) ? 'base64' : 'hex')}` : pick(['Basic', 'Basic %%%', 'Bearer x', 'Digest a=b']);
    }
    if (chance(0.3)) h.cookie = pick(known.cookies);
    if (chance(0.2)) h.accept = pick(['text/html', 'application/json', '*/*', 'image/png', 'text/html;q=%']);
    if (chance(0.1)) h.origin = pick(['http://rp.test', 'null', base, 'http://%%%']);
    return h;
  }

  return Array.from({ length: REQUESTS }, () => {
    const admin = chance(0.35);
    const base = admin ? known.admin : known.base;
    const method = pick(METHODS);
    const q = chance(0.6) ? query() : '';
    const url = `${base}${fill(pick(admin ? adminPaths : providerPaths))}${q ? `?${q}` : ''}`;
    const h = headers(base, admin);
    const type = pick(CONTENT_TYPES);
    const payload = method === 'GET' || method === 'HEAD' ? undefined : body(type);
    if (payload !== undefined && type) h['content-type'] = type;
    return { method, url, headers: h, body: payload };
  });
}

/** What is wrong with an answer, or null. */
function problem(c: Case, response: Response, text: string): string | null {
  if (response.status >= 500) return `status ${response.status}: ${text.slice(0, 200)}`;
  if (c.method === 'HEAD' || response.status === 204 || response.status === 304) return null;
  if (response.status >= 300 && response.status < 400) return response.headers.get('location') ? null : 'a redirect without Location';
  const type = response.headers.get('content-type') ?? '';
  if (/^application\/([\w.-]+\+)?json/.test(type)) {
    let body: any;
    try {
      body = JSON.parse(text);
    } catch {
      return `JSON that does not parse: ${text.slice(0, 200)}`;
    }
    if (response.status < 400) return null;
    // The envelope's errors, or (a 401 of the browser API) the flows a login may take.
    const envelope = body?.status === response.status && ((Array.isArray(body.errors) && typeof body.errors[0]?.code === 'string') || body.data !== undefined);
    const oauth = typeof body?.error === 'string';
    return envelope || oauth ? null : `an error neither in the envelope nor OAuth's: ${text.slice(0, 200)}`;
  }
  if (/^text\/html/.test(type)) return text.trim() ? null : 'an empty page';
  // RFC 7009: a revocation that succeeds answers 200 with no body.
  if (response.status === 200 && text === '' && new URL(c.url).pathname === IDP_PATHS.revocation) return null;
  return `content-type "${type}": ${JSON.stringify(text.slice(0, 200))}`;
}

describeEachDatabase('OpenID provider and admin API: fuzzed requests (issue 33 item 5)', { ...IDP_ENV, ADMIN_PORT: '0' }, ({ server }) => {
  let known: Known;
  before(async () => {
    const client = await registerClient(server(), { grantTypes: ['authorization_code', 'refresh_token', 'client_credentials'] });
    const started = await fetch(`${server().baseUrl}${IDP_PATHS.authorization}?client_id=${client.id}&response_type=code&scope=openid&redirect_uri=${encodeURIComponent(REDIRECT_URI)}`, { redirect: 'manual' });
    const uid = started.headers.get('location')?.split('/').pop();
    assert.ok(uid, 'an interaction was started');
    const { api } = await loggedInBrowser(server());
    known = {
      base: server().baseUrl,
      admin: await adminUrl(server()),
      adminKey: (await newKey(server(), 'write')).secret,
      client: { id: client.id, secret: client.secret! },
      uid,
      cookies: [started.headers.getSetCookie().map((c) => c.split(';')[0]).join('; '), api.cookieHeader, 'sessionid=%00; _session=%%%'],
    };
  });

  it(`answers ${REQUESTS} malformed requests without a 5xx, each in a form a client can read`, async () => {
    const all = cases(known);
    const failures: string[] = [];
    const kinds = new Map<string, number>();
    let next = 0;
    const worker = async () => {
      while (next < all.length) {
        const c = all[next++]!;
        const response = await fetch(c.url, { method: c.method, headers: c.headers, body: c.body, redirect: 'manual' });
        const found = problem(c, response, await response.text());
        if (found) kinds.set(found.slice(0, 40), (kinds.get(found.slice(0, 40)) ?? 0) + 1);
        if (found) failures.push(`${c.method} ${c.url.slice(0, 300)} ${JSON.stringify(c.headers).slice(0, 200)} ${JSON.stringify(c.body ?? null).slice(0, 200)}\n  → ${found}`);
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
    assert.deepEqual(failures.slice(0, 15), [], `${failures.length} of ${all.length} answers were wrong (seed ${SEED}): ${JSON.stringify(Object.fromEntries(kinds))}`);
  });
});
