import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { startTestServer, type TestServer } from '../support/server.js';
import { createLogger } from '../../src/observability/logger.js';
import { PASSWORD, readyClient, uniqueEmail } from '../support/accounts.js';

/** A server whose log lines the test reads, parsed. */
async function loggedServer(env: Record<string, string> = {}, level = 'info'): Promise<{ server: TestServer; lines: () => any[] }> {
  const raw: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      raw.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  const server = await startTestServer('sqlite', { ACCOUNT_EMAIL_VERIFICATION: 'none', ...env }, { logger: createLogger(level, sink) });
  return { server, lines: () => raw.map((line) => JSON.parse(line)) };
}

/** Request lines arrive when the response has finished, a moment after the client has it. */
async function requestLine(lines: () => any[], id: string): Promise<any> {
  for (let i = 0; i < 200; i++) {
    const found = lines().filter((l) => l.request_id === id && l.msg === 'request');
    if (found.length > 0) {
      assert.equal(found.length, 1, 'one line per request');
      return found[0];
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.fail(`no request line for ${id}`);
}

describe('request log lines', () => {
  it('one JSON line per request: id (echoed in X-Request-Id), method, route, status, duration, client', async () => {
    const { server, lines } = await loggedServer();
    try {
      const browser = await readyClient(server, 'browser');
      const response = await browser.post('/auth/signup', { email: uniqueEmail(), password: PASSWORD });
      assert.equal(response.status, 200);
      const id = response.headers.get('x-request-id')!;
      assert.match(id, /^[0-9a-f-]{36}$/);
      const line = await requestLine(lines, id);
      assert.equal(line.level, 'info');
      assert.equal(line.method, 'POST');
      assert.equal(line.route, '/_service/browser/v1/auth/signup');
      assert.equal(line.status, 200);
      assert.equal(typeof line.duration_ms, 'number');
      assert.equal(line.client, 'browser');
      assert.equal(typeof line.time, 'string');

      const notFound = await fetch(`${server.baseUrl}/nowhere`);
      const missing = await requestLine(lines, notFound.headers.get('x-request-id')!);
      assert.deepEqual([missing.route, missing.status, missing.client], ['unmatched', 404, null]);
    } finally {
      await server.close();
    }
  });

  it('X-Request-Id from the client is ignored without trusted proxies', async () => {
    const { server, lines } = await loggedServer();
    try {
      const response = await fetch(`${server.baseUrl}/_service/app/v1/config`, { headers: { 'x-request-id': 'planted-by-client' } });
      const id = response.headers.get('x-request-id')!;
      assert.notEqual(id, 'planted-by-client');
      await requestLine(lines, id);
      assert.ok(!JSON.stringify(lines()).includes('planted-by-client'));
    } finally {
      await server.close();
    }
  });

  it('X-Request-Id from a trusted proxy is kept, unless it is not a plain token', async () => {
    const { server, lines } = await loggedServer({ TRUSTED_PROXY_COUNT: '1' });
    try {
      const kept = await fetch(`${server.baseUrl}/_service/app/v1/config`, { headers: { 'x-request-id': 'lb-4f2a9c' } });
      assert.equal(kept.headers.get('x-request-id'), 'lb-4f2a9c');
      assert.equal((await requestLine(lines, 'lb-4f2a9c')).route, '/_service/app/v1/config');
      const odd = await fetch(`${server.baseUrl}/_service/app/v1/config`, { headers: { 'x-request-id': 'two words "quoted"' } });
      assert.match(odd.headers.get('x-request-id')!, /^[0-9a-f-]{36}$/);
    } finally {
      await server.close();
    }
  });

  it('no URL, query string, header or body reaches a line, even at trace level', async () => {
    const { server, lines } = await loggedServer({}, 'trace');
    try {
      const app = server.client('app');
      const response = await app.post('/auth/login?code=QUERYCODE&state=QUERYSTATE', { email: uniqueEmail(), password: 'BODYPASSWORD' }, {
        authorization: 'Bearer HEADERBEARER',
        'x-session-token': 'HEADERTOKEN',
        cookie: 'sessionid=COOKIEVALUE',
      });
      await requestLine(lines, response.headers.get('x-request-id')!);
      const text = JSON.stringify(lines());
      for (const secret of ['QUERYCODE', 'QUERYSTATE', 'BODYPASSWORD', 'HEADERBEARER', 'HEADERTOKEN', 'COOKIEVALUE', '?code']) {
        assert.ok(!text.includes(secret), `${secret} was logged`);
      }
    } finally {
      await server.close();
    }
  });

  it('successful probes log at debug level, failures and everything else at info', async () => {
    const { server, lines } = await loggedServer();
    try {
      const probe = await fetch(`${server.baseUrl}/healthz`);
      const config = await fetch(`${server.baseUrl}/_service/app/v1/config`);
      await requestLine(lines, config.headers.get('x-request-id')!);
      assert.ok(!lines().some((l) => l.request_id === probe.headers.get('x-request-id')), 'no info line for a successful probe');
    } finally {
      await server.close();
    }
  });
});
