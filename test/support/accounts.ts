import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { ApiClient } from './client.js';
import type { TestServer } from './server.js';
import { extractUrls, type ReceivedMail, type SmtpSink } from './smtp-sink.js';

// Small helpers shared by the API suites: unique addresses, reading keys and
// codes out of mails, and raw requests for bodies the ApiClient will not send.

export const PASSWORD = 'a long secret phrase';

/** An address no other test uses, so mails can be told apart in one sink. */
export function uniqueEmail(label = 'user'): string {
  return `${label}-${randomBytes(4).toString('hex')}@example.com`;
}

export function uniqueUsername(label = 'user'): string {
  return `${label}_${randomBytes(4).toString('hex')}`;
}

/**
 * A client ready to talk: a browser first loads /config, as an SPA does, to
 * get the csrftoken cookie that unsafe requests must echo.
 */
export async function readyClient(server: TestServer, kind: 'browser' | 'app'): Promise<ApiClient> {
  const client = server.client(kind);
  if (kind === 'browser') {
    const config = await client.get('/config');
    assert.equal(config.status, 200);
    assert.ok(client.cookies.get('csrftoken'), 'GET /config sets the csrftoken cookie');
  }
  return client;
}

export function mailsTo(sink: SmtpSink, to: string): ReceivedMail[] {
  return sink.mails.filter((m) => m.to.some((r) => r.toLowerCase() === to.toLowerCase()));
}

/** The `n`-th mail (1-based) to `to`, waiting for it to arrive. */
export async function nthMail(sink: SmtpSink, to: string, n: number, timeoutMs = 5000): Promise<ReceivedMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = mailsTo(sink, to);
    if (found.length >= n) return found[n - 1]!;
    if (Date.now() > deadline) throw new Error(`mail #${n} to ${to} did not arrive; got ${found.length}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The verification key: the last path segment of the link the mail carries. */
export function keyFromMail(mail: ReceivedMail): string {
  const url = extractUrls(mail.text).find((u) => u.includes('/verify-email/'));
  assert.ok(url, `no verification link in: ${mail.text}`);
  return decodeURIComponent(new URL(url).pathname.split('/').filter(Boolean).pop()!);
}

/** The code: a line of its own made of code characters only. */
export function codeFromMail(mail: ReceivedMail): string {
  const match = /^([A-Z0-9]{6})$/m.exec(mail.text);
  assert.ok(match, `no code line in: ${mail.text}`);
  return match[1]!;
}

/** Signs up (verification off or optional) and asserts the client is logged in. */
export async function signedUp(client: ApiClient, email = uniqueEmail(), password = PASSWORD): Promise<{ email: string; password: string }> {
  const response = await client.post('/auth/signup', { email, password });
  assert.equal(response.status, 200, JSON.stringify(response.body));
  assert.equal(response.body.meta.is_authenticated, true);
  return { email, password };
}

export interface RawResponse {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

/** A request with a body and headers exactly as given (no JSON encoding, no cookies). */
export async function rawRequest(
  server: TestServer,
  kind: 'browser' | 'app',
  method: string,
  path: string,
  init: { body?: string; headers?: Record<string, string> } = {},
): Promise<RawResponse> {
  const response = await fetch(`${server.baseUrl}/_service/${kind}/v1${path}`, { method, headers: init.headers, body: init.body });
  const text = await response.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

/** Asserts a JSON error envelope with `status` and the given first error code. */
export function assertError(response: { status: number; body?: any; json?: any }, status: number, code: string, param?: string): void {
  const body = response.body ?? response.json;
  assert.equal(response.status, status, JSON.stringify(body));
  assert.equal(body?.status, status);
  assert.ok(Array.isArray(body.errors) && body.errors.length > 0, JSON.stringify(body));
  assert.equal(body.errors[0].code, code, JSON.stringify(body));
  assert.equal(typeof body.errors[0].message, 'string');
  if (param === undefined) assert.equal(body.errors[0].param, undefined, JSON.stringify(body));
  else assert.equal(body.errors[0].param, param, JSON.stringify(body));
}

/** The flow ids of a 401/410 body, with `!` marking the pending one. */
export function flowIds(body: any): string[] {
  return (body?.data?.flows ?? []).map((f: { id: string; is_pending?: boolean }) => (f.is_pending ? `${f.id}!` : f.id));
}
