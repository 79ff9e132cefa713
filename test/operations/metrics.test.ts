import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase, startTestServer, type TestServer } from '../support/server.js';
import { PASSWORD, codeFromMail, nthMail, readyClient, uniqueEmail } from '../support/accounts.js';
import { jwtEnv, signUp } from '../tokens/support.js';
import { sample, scrape } from '../support/metrics.js';

const metricsOf = (server: TestServer) => scrape(server.baseUrl);

describeEachDatabase('metrics', { ACCOUNT_EMAIL_VERIFICATION: 'none', ACCOUNT_LOGIN_BY_CODE_ENABLED: 'true' }, ({ server }) => {
  it('count requests by route pattern and status, never by URL', async () => {
    const app = server().client('app');
    await app.get('/auth/session?code=QUERYSECRET&state=STATESECRET');
    await fetch(`${server().baseUrl}/no/such/path-PATHSECRET`);
    const text = await metricsOf(server());
    const whoami = { method: 'GET', route: '/_service/app/v1/auth/session', status: '401' };
    assert.ok(sample(text, 'http_request_duration_seconds_count', whoami) >= 1);
    assert.ok(sample(text, 'http_request_duration_seconds_bucket', { ...whoami, le: '+Inf' }) >= 1);
    assert.ok(sample(text, 'http_request_duration_seconds_count', { method: 'GET', route: 'unmatched', status: '404' }) >= 1);
    for (const secret of ['QUERYSECRET', 'STATESECRET', 'PATHSECRET']) assert.ok(!text.includes(secret), `${secret} in the metrics`);
  });

  it('count logins by method and outcome', async () => {
    const before = await metricsOf(server());
    const email = uniqueEmail();
    const app = server().client('app');
    assert.equal((await app.post('/auth/signup', { email, password: PASSWORD })).status, 200);
    const other = server().client('app');
    assert.equal((await other.post('/auth/login', { email, password: 'not the password' })).status, 400);
    assert.equal((await other.post('/auth/login', { email, password: PASSWORD })).status, 200);
    const byCode = await readyClient(server(), 'browser');
    assert.equal((await byCode.post('/auth/code/request', { email })).status, 401);
    const code = codeFromMail(await nthMail(server().mail, email, 1));
    assert.equal((await byCode.post('/auth/code/confirm', { code: 'WRONG1' })).status, 400);
    assert.equal((await byCode.post('/auth/code/confirm', { code })).status, 200);
    const after = await metricsOf(server());
    const delta = (labels: Record<string, string>) => sample(after, 'auth_logins_total', labels) - sample(before, 'auth_logins_total', labels);
    assert.equal(delta({ method: 'password', outcome: 'failure' }), 1);
    assert.equal(delta({ method: 'password', outcome: 'success' }), 1);
    assert.equal(delta({ method: 'code', outcome: 'failure' }), 1);
    assert.equal(delta({ method: 'code', outcome: 'success' }), 1);
  });

  it('count mails sent, database queries, password hashes and event-loop lag', async () => {
    const before = await metricsOf(server());
    // A login code is mailed before the answer (a reset link only after it).
    await readyClient(server(), 'app').then((c) => c.post('/auth/code/request', { email: uniqueEmail() }));
    const after = await metricsOf(server());
    assert.equal(sample(after, 'auth_mails_total', { result: 'sent' }) - sample(before, 'auth_mails_total', { result: 'sent' }), 1);
    assert.ok(sample(after, 'db_query_duration_seconds_count') > sample(before, 'db_query_duration_seconds_count'));
    assert.match(after, /^auth_password_hashes\{state="running"\} \d+$/m);
    assert.match(after, /^auth_password_hashes\{state="queued"\} \d+$/m);
    assert.match(after, /^nodejs_eventloop_lag_seconds \d/m);
  });
});

describe('metrics of outgoing messages, rate limits and tokens', () => {
  it('count a mail the relay refused as failed', async () => {
    const server = await startTestServer('sqlite', { ACCOUNT_EMAIL_VERIFICATION: 'none', ACCOUNT_LOGIN_BY_CODE_ENABLED: 'true' });
    try {
      await server.mail.close();
      const response = await server.client('app').post('/auth/code/request', { email: uniqueEmail() });
      assert.equal(response.status, 503);
      assert.equal(sample(await metricsOf(server), 'auth_mails_total', { result: 'failed' }), 1);
    } finally {
      await server.close().catch(() => {});
    }
  });

  it('count rate-limit rejections by action', async () => {
    const server = await startTestServer('sqlite', { ACCOUNT_RATE_LIMITS: '{"login":"1/m/ip"}' });
    try {
      const app = server.client('app');
      await app.post('/auth/login', { email: uniqueEmail(), password: PASSWORD });
      assert.equal((await app.post('/auth/login', { email: uniqueEmail(), password: PASSWORD })).status, 429);
      const text = await metricsOf(server);
      assert.equal(sample(text, 'auth_rate_limit_rejections_total', { action: 'login' }), 1);
      assert.equal(sample(text, 'auth_logins_total', { method: 'password', outcome: 'rate_limited' }), 1);
    } finally {
      await server.close();
    }
  });

  it('count token refreshes and refresh-token reuse', async () => {
    const server = await startTestServer('sqlite', jwtEnv());
    try {
      const account = await signUp(server, 'metrics');
      const app = server.client('app');
      assert.equal((await app.post('/tokens/refresh', { refresh_token: account.refreshToken })).status, 200);
      // The rotated token again: reuse, which revokes the family.
      assert.equal((await app.post('/tokens/refresh', { refresh_token: account.refreshToken })).status, 400);
      const text = await metricsOf(server);
      assert.equal(sample(text, 'auth_token_refreshes_total', { outcome: 'success' }), 1);
      assert.equal(sample(text, 'auth_token_refreshes_total', { outcome: 'failure' }), 1);
      assert.equal(sample(text, 'auth_refresh_token_reuse_total'), 1);
    } finally {
      await server.close();
    }
  });
});

describe('where metrics are served', () => {
  it('METRICS_PORT serves them on that port only', async () => {
    const server = await startTestServer('sqlite', { METRICS_PORT: '0' });
    try {
      const address = await server.app.listenMetrics();
      assert.ok(address && address.port > 0);
      const publicAnswer = await fetch(`${server.baseUrl}/metrics`);
      assert.equal(publicAnswer.status, 404);
      assert.equal(((await publicAnswer.json()) as any).errors[0].code, 'not_found');
      await server.client('app').get('/config');
      const text = await scrape(`http://127.0.0.1:${address.port}`);
      assert.ok(sample(text, 'http_request_duration_seconds_count', { route: '/_service/app/v1/config', status: '200' }) >= 1);
      assert.equal((await fetch(`http://127.0.0.1:${address.port}/other`)).status, 404);
    } finally {
      await server.close();
    }
  });

  it('METRICS_ENABLED=false serves none', async () => {
    const server = await startTestServer('sqlite', { METRICS_ENABLED: 'false' });
    try {
      assert.equal((await fetch(`${server.baseUrl}/metrics`)).status, 404);
      assert.equal(await server.app.listenMetrics(), null);
    } finally {
      await server.close();
    }
  });
});
