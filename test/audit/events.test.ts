import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeEachDatabase, type TestServer } from '../support/server.js';
import { keyFromMail, nthMail, PASSWORD, uniqueEmail } from '../support/accounts.js';
import { resetKeyFromMail } from '../account/helpers.js';
import { totpAt } from '../mfa/support.js';
import { jwtEnv, signUp } from '../tokens/support.js';
import { allEvents, eventsOf, tracedClient, type TracedClient } from './support.js';
import type { AuditEventRecord } from '../../src/store/audit-events.js';
import { listAuthenticators } from '../../src/store/mfa-authenticators.js';

// Every security event of the HTTP API, each looked for right after the
// action that causes it: its type, user, address, user agent, outcome and
// detail. Then the whole trail is searched for the secrets the test used.

const NEW_PASSWORD = 'another long secret phrase';
const RESET_PASSWORD = 'a third long secret phrase';

type Expected = { type: string; userId: number | null; outcome?: 'success' | 'failure'; detail?: Record<string, unknown>; client: TracedClient };

describeEachDatabase('audit events of the API', { TRUSTED_PROXY_COUNT: '1' }, ({ server }) => {
  let seen = 0;
  const secrets: string[] = [PASSWORD, NEW_PASSWORD, RESET_PASSWORD];

  /** The events since the last call, which must be exactly `expected`, in order. */
  async function expectEvents(...expected: Expected[]): Promise<AuditEventRecord[]> {
    const events = (await allEvents(server())).slice(seen);
    seen += events.length;
    assert.deepEqual(
      events.map((e) => e.type),
      expected.map((e) => e.type),
    );
    expected.forEach((want, i) => {
      const got = events[i]!;
      assert.equal(got.userId, want.userId, `${want.type}: user`);
      assert.equal(got.ip, want.client.ip, `${want.type}: ip`);
      assert.equal(got.userAgent, want.client.userAgent, `${want.type}: user agent`);
      assert.equal(got.outcome, want.outcome ?? 'success', `${want.type}: outcome`);
      assert.match(got.eventId, /^evt_[0-9a-f]{32}$/);
      assert.ok(Math.abs(got.occurredAt - server().clock.now()) < 60_000, `${want.type}: time`);
      if (want.detail) assert.deepEqual(got.detail, want.detail, `${want.type}: detail`);
    });
    return events;
  }

  async function userIdOf(client: TracedClient): Promise<number> {
    const session = await client.get('/auth/session');
    assert.equal(session.status, 200, JSON.stringify(session.body));
    return session.body.data.user.id;
  }

  it('records each event after its action, and no secret anywhere', async () => {
    const s: TestServer = server();
    const email = uniqueEmail('audit');
    const browser = await tracedClient(s, 'browser');

    assert.equal((await browser.post('/auth/signup', { email, password: PASSWORD })).status, 200);
    const userId = await userIdOf(browser);
    await expectEvents(
      { type: 'signup', userId, client: browser, detail: { method: 'password', email } },
      { type: 'login.succeeded', userId, client: browser, detail: { method: 'signup' } },
    );

    const verifyKey = keyFromMail(await nthMail(s.mail, email, 1));
    secrets.push(verifyKey);
    assert.equal((await browser.post('/auth/email/verify', { key: verifyKey })).status, 200);
    await expectEvents({ type: 'email.verified', userId, client: browser, detail: { email } });

    assert.equal((await browser.post('/auth/reauthenticate', { password: 'not the password' })).status, 400);
    assert.equal((await browser.post('/auth/reauthenticate', { password: PASSWORD })).status, 200);
    await expectEvents(
      { type: 'reauthenticated', userId, outcome: 'failure', client: browser, detail: { method: 'password', reason: 'invalid_password' } },
      { type: 'reauthenticated', userId, client: browser, detail: { method: 'password' } },
    );

    assert.equal((await browser.post('/account/password/change', { current_password: PASSWORD, new_password: NEW_PASSWORD })).status, 200);
    await expectEvents({ type: 'password.changed', userId, client: browser });

    assert.equal((await browser.delete('/auth/session')).status, 401);
    await expectEvents({ type: 'logout', userId, client: browser });

    const app = await tracedClient(s, 'app');
    assert.equal((await app.post('/auth/login', { email, password: PASSWORD })).status, 400);
    const stranger = uniqueEmail('nobody');
    assert.equal((await app.post('/auth/login', { email: stranger, password: PASSWORD })).status, 400);
    assert.equal((await app.post('/auth/login', { email, password: NEW_PASSWORD })).status, 200);
    secrets.push(app.sessionToken!);
    await expectEvents(
      { type: 'login.failed', userId, outcome: 'failure', client: app, detail: { method: 'password', identifier: email, reason: 'invalid_password' } },
      { type: 'login.failed', userId: null, outcome: 'failure', client: app, detail: { method: 'password', identifier: stranger, reason: 'unknown_user' } },
      { type: 'login.succeeded', userId, client: app, detail: { method: 'password' } },
    );

    // Addresses: add one, verify it, make it primary, remove the first.
    assert.equal((await app.post('/auth/reauthenticate', { password: NEW_PASSWORD })).status, 200);
    seen += 1;
    const second = uniqueEmail('second');
    assert.equal((await app.post('/account/email', { email: second })).status, 200);
    await expectEvents({ type: 'email.added', userId, client: app, detail: { email: second } });
    const secondKey = keyFromMail(await nthMail(s.mail, second, 1));
    secrets.push(secondKey);
    assert.equal((await app.post('/auth/email/verify', { key: secondKey })).status, 200);
    assert.equal((await app.patch('/account/email', { email: second, primary: true })).status, 200);
    assert.equal((await app.delete('/account/email', { email })).status, 200);
    await expectEvents(
      { type: 'email.verified', userId, client: app, detail: { email: second } },
      { type: 'email.primary_changed', userId, client: app, detail: { email: second } },
      { type: 'email.removed', userId, client: app, detail: { email } },
    );

    // Second factors.
    const offer = await app.get('/account/authenticators/totp');
    const secret: string = offer.body.meta.secret;
    secrets.push(secret);
    const activation = totpAt(s, secret);
    secrets.push(activation);
    assert.equal((await app.post('/account/authenticators/totp', { code: activation })).status, 200);
    const codes = await app.get('/account/authenticators/recovery-codes');
    secrets.push(...codes.body.data.unused_codes);
    assert.equal((await app.post('/account/authenticators/recovery-codes')).status, 200);
    await expectEvents(
      { type: 'authenticator.added', userId, client: app, detail: { authenticator: 'totp' } },
      { type: 'recovery_codes.regenerated', userId, client: app },
    );

    const phone = await tracedClient(s, 'app');
    assert.equal((await phone.post('/auth/login', { email: second, password: NEW_PASSWORD })).status, 401);
    assert.equal((await phone.post('/auth/2fa/authenticate', { code: '000000' })).status, 400);
    s.clock.advance(30_000);
    const code = totpAt(s, secret);
    secrets.push(code);
    assert.equal((await phone.post('/auth/2fa/authenticate', { code })).status, 200);
    await expectEvents(
      { type: 'login.failed', userId, outcome: 'failure', client: phone, detail: { method: 'mfa', reason: 'invalid_code' } },
      { type: 'login.succeeded', userId, client: phone, detail: { method: 'password', mfa: 'totp' } },
    );

    const sessions = (await app.get('/auth/sessions')).body.data as Array<{ id: number; is_current: boolean }>;
    const other = sessions.find((x) => !x.is_current)!;
    assert.equal((await app.delete('/auth/sessions', { sessions: [other.id] })).status, 200);
    await expectEvents({ type: 'session.revoked', userId, client: app, detail: { sessions: 1 } });

    const codesId = (await listAuthenticators(s.app.deps.db, userId)).find((a) => a.type === 'recovery_codes')!.id;
    assert.equal((await app.delete('/account/authenticators/totp')).status, 200);
    // The recovery codes, which alone protect nothing, go with the last second factor.
    await expectEvents(
      { type: 'authenticator.removed', userId, client: app, detail: { authenticator: 'totp' } },
      { type: 'authenticator.removed', userId, client: app, detail: { authenticator: 'recovery_codes', authenticator_id: codesId } },
    );

    // A password reset by link, from a client that is not logged in.
    const visitor = await tracedClient(s, 'browser');
    assert.equal((await visitor.post('/auth/password/request', { email: second })).status, 200);
    const resetKey = resetKeyFromMail(await nthMail(s.mail, second, 2));
    secrets.push(resetKey);
    assert.equal((await visitor.post('/auth/password/reset', { key: resetKey, password: RESET_PASSWORD })).status, 401);
    await expectEvents({ type: 'password.reset', userId, client: visitor, detail: { method: 'password_reset' } });

    const last = await tracedClient(s, 'app');
    assert.equal((await last.post('/auth/login', { email: second, password: RESET_PASSWORD })).status, 200);
    assert.equal((await last.delete('/account')).status, 401);
    await expectEvents(
      { type: 'login.succeeded', userId, client: last, detail: { method: 'password' } },
      // The account is gone; its history keeps the id.
      { type: 'account.deleted', userId, client: last },
    );

    const trail = JSON.stringify(await allEvents(s));
    for (const secretValue of secrets) assert.ok(!trail.includes(secretValue), `the audit trail holds a secret the test used: ${secretValue.slice(0, 4)}...`);
  });
});

describeEachDatabase('audit events of JWT refresh', { TRUSTED_PROXY_COUNT: '1', ...jwtEnv() }, ({ server }) => {
  it('records a reused refresh token, revoking family and session, with who presented it', async () => {
    const account = await signUp(server(), 'audit-reuse');
    const client = await tracedClient(server(), 'app');
    const first = await client.post('/tokens/refresh', { refresh_token: account.refreshToken });
    assert.equal(first.status, 200);
    const replay = await client.post('/tokens/refresh', { refresh_token: account.refreshToken });
    assert.equal(replay.status, 400);
    const [reused] = await eventsOf(server(), 'refresh_token.reused', account.userId);
    assert.ok(reused, 'recorded');
    assert.equal(reused.outcome, 'failure');
    assert.equal(reused.ip, client.ip);
    assert.equal(reused.userAgent, client.userAgent);
    const trail = JSON.stringify(await allEvents(server()));
    for (const token of [account.refreshToken, first.body.data.refresh_token, account.accessToken]) assert.ok(!trail.includes(token));
  });
});
