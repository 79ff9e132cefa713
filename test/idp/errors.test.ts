import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase, startTestServer, type TestServer } from '../support/server.js';
import { rawExchange, type RawAnswer } from '../support/raw-http.js';
import { createLogger } from '../../src/observability/logger.js';
import { adminUrl, newKey } from '../admin/support.js';
import { IDP_ENV, registerClient } from './support.js';

// Issue 33 item 5: what a fuzzer found answered with a 500 or an empty body
// on the provider's paths, and the provider's errors logged with the
// request id.

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

function assertEnvelope(answer: RawAnswer, status: number, param: string): void {
  assert.equal(answer.status, status, answer.text);
  assert.match(answer.headers['content-type'] ?? '', /^application\/json/);
  const body = JSON.parse(answer.text);
  assert.equal(body.status, status);
  assert.equal(body.errors[0].code, 'bad_request');
  assert.equal(body.errors[0].param, param);
}

/** The fields of the device page's code form. */
function codeForm(html: string): Record<string, string> {
  const form = /<form[^>]*id="op\.deviceInputForm"[^>]*>([\s\S]*?)<\/form>/.exec(html);
  assert.ok(form, html.slice(0, 500));
  const fields: Record<string, string> = {};
  for (const input of form[1]!.matchAll(/<input[^>]*>/g)) {
    const name = /name="([^"]+)"/.exec(input[0])?.[1];
    if (name) fields[name] = /value="([^"]*)"/.exec(input[0])?.[1] ?? '';
  }
  return fields;
}

const cookiesOf = (response: Response) => response.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');

describeEachDatabase('regression: the provider answers bad input without a 500 (issue 33 item 5)', { ...IDP_ENV, ADMIN_PORT: '0' }, ({ server }) => {
  let adminBase: string | undefined;
  const admin = async () => (adminBase ??= await adminUrl(server()));

  it('the device form posted without the page\'s session: the form again, with a session it then works with', async () => {
    const first = await fetch(`${server().baseUrl}/identity/o/device`, { method: 'POST', headers: FORM, body: 'user_code=BCDF-GHJK' });
    assert.equal(first.status, 400);
    assert.match(first.headers.get('content-type') ?? '', /^text\/html/);
    const fields = codeForm(await first.text());
    const cookie = cookiesOf(first);
    assert.match(cookie, /_session=/);
    const again = await fetch(`${server().baseUrl}/identity/o/device`, { method: 'POST', headers: { ...FORM, cookie }, body: new URLSearchParams({ ...fields, user_code: 'BCDF-GHJK' }) });
    // The form's token held: the code itself is what is refused now, on the form again.
    assert.match(await again.text(), /That code is not valid/);
  });

  it('/identity/o/device/<uid> without its session: the code form, not a 500', async () => {
    const response = await fetch(`${server().baseUrl}/identity/o/device/no-such-uid`);
    assert.equal(response.status, 400);
    codeForm(await response.text());
  });

  it('a NUL byte in client_id at the token and revocation endpoints is an unknown client', async () => {
    for (const [path, body] of [['/identity/o/api/token', 'grant_type=client_credentials'], ['/identity/o/api/revoke', 'token=x']] as const) {
      const response = await fetch(`${server().baseUrl}${path}`, { method: 'POST', headers: FORM, body: `${body}&client_id=a%00b&client_secret=x` });
      assert.equal(response.status, 401, path);
      assert.equal((await response.json()).error, 'invalid_client');
    }
  });

  it('a NUL byte in the admin API\'s client_id is a client not found', async () => {
    const base = await admin();
    const { secret } = await newKey(server(), 'write');
    for (const [method, path] of [['GET', ''], ['DELETE', ''], ['POST', '/rotate-secret']] as const) {
      const response = await fetch(`${base}/admin/v1/idp/clients/a%00b${path}`, { method, headers: { authorization: `Bearer ${secret}` } });
      assert.equal(response.status, 404, `${method} ${path}`);
      assert.equal((await response.json()).errors[0].code, 'not_found');
    }
  });

  it('a method or a subpath the provider does not route: OAuth\'s 404, or the error page, not Koa\'s plain text', async () => {
    for (const path of ['/identity/o/api/token', '/identity/o/api/revoke/x', '/.well-known/openid-configuration/x']) {
      const json = await fetch(`${server().baseUrl}${path}`);
      assert.equal(json.status, 404, path);
      assert.equal((await json.json()).error, 'invalid_request');
      const page = await fetch(`${server().baseUrl}${path}`, { headers: { accept: 'text/html' } });
      assert.equal(page.status, 404);
      assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    }
  });

  it('HTTP/1.0 without a Host, or with one that names no host, is refused before the provider', async () => {
    assertEnvelope(await rawExchange(server().baseUrl, 'GET /.well-known/openid-configuration HTTP/1.0\r\n\r\n'), 400, 'host');
    for (const host of ['%%%', 'a@b', 'x y', '-bad-.test']) {
      assertEnvelope(await rawExchange(server().baseUrl, `GET /identity/o/authorize HTTP/1.0\r\nHost: ${host}\r\n\r\n`), 400, 'host');
    }
    // A host the request names still makes the issuer, as in the reference.
    const discovery = await rawExchange(server().baseUrl, 'GET /.well-known/openid-configuration HTTP/1.0\r\nHost: auth.test:8080\r\n\r\n');
    assert.equal(discovery.status, 200);
    assert.equal(JSON.parse(discovery.text).issuer, 'http://auth.test:8080');
  });

  it('HTTP/1.1 without a Host: 400 in the envelope, on both listeners', async () => {
    assertEnvelope(await rawExchange(server().baseUrl, 'GET /.well-known/openid-configuration HTTP/1.1\r\n\r\n'), 400, 'host');
    assertEnvelope(await rawExchange(await admin(), 'GET /admin/v1/idp/clients HTTP/1.1\r\n\r\n'), 400, 'host');
  });

  it('an Expect other than 100-continue: 417 in the envelope', async () => {
    const answer = await rawExchange(server().baseUrl, 'POST /identity/o/api/token HTTP/1.1\r\nHost: localhost\r\nExpect: 999-x\r\nContent-Length: 2\r\n\r\nab');
    assertEnvelope(answer, 417, 'expect');
  });
});

describe('OpenID provider errors are logged with the request id (issue 33 item 5) [sqlite]', () => {
  const lines: any[] = [];
  let server: TestServer;
  before(async () => {
    server = await startTestServer('sqlite', IDP_ENV, { logger: createLogger('info', { write: (line: string) => void lines.push(JSON.parse(line)) }) });
  });
  after(async () => server?.close());

  it('a client whose stored record breaks: the provider\'s server_error, logged under the request\'s id', async () => {
    const client = await registerClient(server, { grantTypes: ['client_credentials'] });
    await server.app.deps.db.updateTable('idp_clients').set({ redirect_uris: 'not json' }).where('id', '=', client.id).execute();
    const response = await fetch(`${server.baseUrl}/identity/o/api/token`, {
      method: 'POST',
      headers: { ...FORM, authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}` },
      body: 'grant_type=client_credentials',
    });
    assert.equal(response.status, 500);
    assert.equal((await response.json()).error, 'server_error');
    const requestId = response.headers.get('x-request-id');
    assert.ok(requestId);
    const logged = lines.filter((line) => line.msg === 'OpenID provider error');
    assert.equal(logged.length, 1, JSON.stringify(lines.slice(-5)));
    assert.equal(logged[0].request_id, requestId);
    assert.equal(logged[0].level, 'error');
    assert.match(logged[0].err.message, /JSON/);
  });
});
