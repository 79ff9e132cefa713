import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { createRemoteJWKSet, decodeJwt, jwtVerify } from 'jose';
import { describeEachDatabase } from '../support/server.js';
import { deliveriesOf, startReceiver, until, type Receiver } from '../audit/support.js';
import { maxRetryDelayMs } from '../../src/messaging/webhooks/retry-schedule.js';
import { revokeSessions } from '../../src/flows/admin/sessions.js';
import { cliSource } from '../../src/audit/recorder.js';
import { readyClient, PASSWORD } from '../support/accounts.js';
import { IDP_ENV, codeFlow, loggedInBrowser, registerClient, relyingParty } from './support.js';

// OpenID back-channel logout: a client that registered a URI is sent a
// logout token when the user's session here ends (a logout, sessions revoked
// by an admin), through the webhook outbox and its retries.

let receiver: Receiver;
before(async () => {
  receiver = await startReceiver();
});
after(async () => receiver?.close());

// The receiver listens on 127.0.0.1, which back-channel logout URIs may reach only when allowed (private-address.test.ts).
describeEachDatabase('OpenID provider: back-channel logout', { ...IDP_ENV, WEBHOOK_POLL_INTERVAL_MS: '20', WEBHOOK_TIMEOUT_MS: '500', IDP_OIDC_BACKCHANNEL_LOGOUT_ALLOW_PRIVATE: 'true' }, ({ server }) => {
  async function tokensFor(sub: string) {
    const jwks = createRemoteJWKSet(new URL(`${server().baseUrl}/.well-known/jwks.json`));
    const found = [];
    for (const hook of receiver.received) {
      assert.equal(hook.headers['content-type'], 'application/x-www-form-urlencoded');
      const token = new URLSearchParams(hook.body).get('logout_token')!;
      // The receiver is shared by both databases' servers.
      if (decodeJwt(token).iss !== server().baseUrl) continue;
      const { payload, protectedHeader } = await jwtVerify(token, jwks, { issuer: server().baseUrl, typ: 'logout+jwt' });
      assert.equal(protectedHeader.typ, 'logout+jwt');
      if (payload.sub === sub) found.push(payload);
    }
    return found;
  }

  it('tells the client when the user logs out here', async () => {
    const client = await registerClient(server(), { backchannelLogoutUri: receiver.url });
    const quiet = await registerClient(server());
    const { api } = await loggedInBrowser(server());
    const { tokens } = await codeFlow(server(), await relyingParty(server(), client), api);
    await codeFlow(server(), await relyingParty(server(), quiet), api);
    const sub = tokens.claims()!.sub;
    assert.equal((await api.delete('/auth/session')).status, 401);
    const [payload] = await until('the logout token', async () => {
      const found = await tokensFor(sub);
      return found.length > 0 && found;
    });
    assert.equal(payload!.aud, client.id);
    assert.ok(tokens.claims()!.sid, 'the ID token names the session');
    assert.equal(payload!.sid, tokens.claims()!.sid, 'the logout token names the session that ended');
    assert.deepEqual(payload!.events, { 'http://schemas.openid.net/event/backchannel-logout': {} });
    assert.ok(payload!.jti);
    assert.equal(payload!.nonce, undefined, 'a logout token never carries a nonce');
  });

  it('and when an admin revokes the user\'s sessions', async () => {
    const client = await registerClient(server(), { backchannelLogoutUri: receiver.url });
    const { api } = await loggedInBrowser(server());
    const { tokens } = await codeFlow(server(), await relyingParty(server(), client), api);
    const sub = tokens.claims()!.sub;
    const result = await revokeSessions(server().app.deps, cliSource(server().clock.now()), Number(sub), 'all');
    assert.ok(result.ok);
    const [payload] = await until('the logout token', async () => {
      const found = await tokensFor(sub);
      return found.length > 0 && found;
    });
    assert.equal(payload!.sid, undefined, 'every session of the user: no sid');
  });

  it('a logout names only the session that ended, not the user\'s others', async () => {
    const client = await registerClient(server(), { backchannelLogoutUri: receiver.url });
    const rp = await relyingParty(server(), client);
    const { api, email } = await loggedInBrowser(server());
    const first = (await codeFlow(server(), rp, api)).tokens.claims()!;
    const other = await readyClient(server(), 'browser');
    assert.equal((await other.post('/auth/login', { email, password: PASSWORD })).status, 200);
    const second = (await codeFlow(server(), rp, other)).tokens.claims()!;
    assert.equal(second.sub, first.sub);
    assert.notEqual(second.sid, first.sid, 'two sessions here, two sids');
    assert.equal((await api.delete('/auth/session')).status, 401);
    const [payload] = await until('the logout token', async () => {
      const found = await tokensFor(first.sub);
      return found.length > 0 && found;
    });
    assert.equal(payload!.sid, first.sid);
    assert.equal((await other.get('/auth/session')).status, 200);
  });

  it('discovery announces back-channel logout with sessions', async () => {
    const discovery = await (await fetch(`${server().baseUrl}/.well-known/openid-configuration`)).json();
    assert.equal(discovery.backchannel_logout_supported, true);
    assert.equal(discovery.backchannel_logout_session_supported, true);
  });

  // Back-channel logouts go out through their own POST (webhooks/public-post.ts): its failures are retried as a webhook's.
  it('retries a receiver that fails or hangs, until one answers', async () => {
    const failing = await startReceiver({ answer: 500 });
    try {
      const client = await registerClient(server(), { backchannelLogoutUri: failing.url });
      const { api } = await loggedInBrowser(server());
      await codeFlow(server(), await relyingParty(server(), client), api);
      assert.equal((await api.delete('/auth/session')).status, 401);
      // An attempt in flight shows its count raised and the error of the one before: each state is waited for as a whole.
      const reached = (what: string, check: (d: { attempts: number; lastError: string | null; status: string }) => boolean) =>
        until(what, async () => (await deliveriesOf(server())).find((d) => d.url === failing.url && check(d)));
      await reached('HTTP 500 on the first attempt', (d) => d.attempts === 1 && d.lastError === 'HTTP 500' && d.status === 'pending');
      failing.answer = 'hang';
      server().clock.advance(maxRetryDelayMs(1));
      await reached('a timeout on the second', (d) => d.attempts === 2 && d.lastError === 'timeout' && d.status === 'pending');
      failing.answer = 200;
      server().clock.advance(maxRetryDelayMs(2));
      await reached('delivered on the third', (d) => d.attempts === 3 && d.status === 'delivered');
      assert.equal(failing.received.length, 3);
    } finally {
      await failing.close();
    }
  });
});
