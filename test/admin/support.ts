import assert from 'node:assert/strict';
import type { TestServer } from '../support/server.js';
import { createAdminKey } from '../../src/flows/admin/api-keys.js';
import { cliSource } from '../../src/audit/recorder.js';
import { setAdmin } from '../../src/flows/admin/users.js';
import { findUserByEmail } from '../../src/store/users.js';
import { PASSWORD } from '../support/accounts.js';
import { nextPeriod, totpAccount, totpAt } from '../mfa/support.js';

// Clients of the admin API (ADMIN_PORT) of a test server: each with a key
// made through the same flow as `headless-auth admin-keys create`.

export interface AdminResponse {
  status: number;
  body: any;
  headers: Headers;
}

export class AdminClient {
  constructor(
    readonly baseUrl: string,
    readonly key: string | undefined,
  ) {}

  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<AdminResponse> {
    const h: Record<string, string> = { ...headers };
    if (this.key !== undefined && !('authorization' in h)) h.authorization = `Bearer ${this.key}`;
    if (body !== undefined) h['content-type'] = 'application/json';
    const response = await fetch(`${this.baseUrl}${path}`, { method, headers: h, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });
    const text = await response.text();
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/, `${method} ${path}: ${text.slice(0, 200)}`);
    return { status: response.status, body: JSON.parse(text), headers: response.headers };
  }

  get = (path: string) => this.request('GET', `/admin/v1${path}`);
  post = (path: string, body?: unknown) => this.request('POST', `/admin/v1${path}`, body);
  put = (path: string, body?: unknown) => this.request('PUT', `/admin/v1${path}`, body);
  patch = (path: string, body?: unknown) => this.request('PATCH', `/admin/v1${path}`, body);
  delete = (path: string) => this.request('DELETE', `/admin/v1${path}`);
}

/** Starts the server's admin listener (the server was started with ADMIN_PORT=0) and answers its base URL. */
export async function adminUrl(server: TestServer): Promise<string> {
  const address = await server.app.listenAdmin();
  assert.ok(address, 'the server was started without ADMIN_PORT');
  return `http://127.0.0.1:${address.port}`;
}

export async function newKey(server: TestServer, scope: 'read' | 'write', options: { name?: string; expiresAt?: number } = {}): Promise<{ id: number; secret: string }> {
  const made = await createAdminKey(server.app.deps, cliSource(server.clock.now()), { name: options.name ?? `test ${scope}`, scope, expiresAt: options.expiresAt ?? null });
  assert.ok(made.ok);
  return { id: made.key.id, secret: made.secret };
}

export function assertAdminError(response: AdminResponse, status: number, code: string, param?: string): void {
  assert.equal(response.status, status, JSON.stringify(response.body));
  assert.equal(response.body.status, status);
  assert.equal(response.body.errors?.[0]?.code, code, JSON.stringify(response.body));
  assert.equal(typeof response.body.errors[0].message, 'string');
  if (param !== undefined) assert.equal(response.body.errors[0].param, param, JSON.stringify(response.body));
}

/**
 * A browser on the admin listener, as the console page is: a cookie jar, and
 * the X-CSRFToken header from the admin_csrftoken cookie on changes.
 */
export class ConsoleBrowser {
  readonly cookies = new Map<string, string>();

  constructor(readonly baseUrl: string) {}

  async request(method: string, path: string, body?: unknown): Promise<AdminResponse> {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const csrf = this.cookies.get('admin_csrftoken');
    if (csrf && method !== 'GET') headers['x-csrftoken'] = csrf;
    const response = await fetch(`${this.baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair!.indexOf('=');
      const [name, value] = [pair!.slice(0, eq).trim(), pair!.slice(eq + 1).trim()];
      if (value === '' || attrs.some((a) => /^\s*max-age=0/i.test(a))) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await response.text();
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/, `${method} ${path}: ${text.slice(0, 200)}`);
    return { status: response.status, body: JSON.parse(text), headers: response.headers };
  }

  /** Signs in at the console with a password and a TOTP code (`code()` computes one when the server asks). */
  async signIn(email: string, password: string, code: () => string): Promise<void> {
    assert.equal((await this.request('GET', '/_service/browser/v1/config')).status, 200);
    const login = await this.request('POST', '/_service/browser/v1/auth/login', { email, password });
    assert.equal(login.status, 401, JSON.stringify(login.body));
    const done = await this.request('POST', '/_service/browser/v1/auth/2fa/authenticate', { code: code() });
    assert.equal(done.status, 200, JSON.stringify(done.body));
  }
}

/** A user with TOTP given the admin role (as `users set-admin` does), signed in at the console's origin `base`. */
export async function consoleAdmin(server: TestServer, base: string): Promise<{ email: string; secret: string; id: number; console: ConsoleBrowser }> {
  const account = await totpAccount(server, 'browser');
  const user = (await findUserByEmail(server.app.deps.db, account.email))!;
  await setAdmin(server.app.deps, cliSource(server.clock.now()), user, true);
  const browser = new ConsoleBrowser(base);
  await browser.signIn(account.email, PASSWORD, () => (nextPeriod(server), totpAt(server, account.secret)));
  return { email: account.email, secret: account.secret, id: user.id, console: browser };
}
