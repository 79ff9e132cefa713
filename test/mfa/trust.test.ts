import { it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase } from '../support/server.js';
import { PASSWORD, assertError, readyClient } from '../support/accounts.js';
import type { ApiClient } from '../support/client.js';
import { pendingFlow, totpAccount, totpAt, nextPeriod } from './support.js';

// "Trust this browser" (MFA_TRUST_ENABLED): browser client only.

const TRUST_PENDING = { id: 'mfa_trust', is_pending: true };

async function passwordLogin(client: ApiClient, email: string, password = PASSWORD) {
  return client.post('/auth/login', { email, password });
}

describeEachDatabase('trust this browser', { MFA_TRUST_ENABLED: 'true' }, ({ server }) => {
  it('asks after the second factor; trusting skips it on this browser only', async () => {
    const { email, secret } = await totpAccount(server(), 'browser');
    const browser = await readyClient(server(), 'browser');
    assert.equal((await passwordLogin(browser, email)).status, 401);
    const code = await browser.post('/auth/2fa/authenticate', { code: totpAt(server(), secret) });
    assert.equal(code.status, 401, JSON.stringify(code.body));
    assert.deepEqual(pendingFlow(code.body), TRUST_PENDING);
    assert.equal((await browser.get('/auth/session')).status, 401, 'not logged in before answering');

    const trusted = await browser.post('/auth/2fa/trust', { trust: true });
    assert.equal(trusted.status, 200, JSON.stringify(trusted.body));
    assert.deepEqual(trusted.body.data.methods.map((m: any) => m.method), ['password', 'mfa']);
    const setCookie = trusted.headers.getSetCookie().find((c) => c.startsWith('mfa_trusted='));
    assert.ok(setCookie, 'the trust cookie is set');
    assert.match(setCookie!, /Max-Age=1209600/);
    assert.match(setCookie!, /HttpOnly/);

    assert.equal((await browser.delete('/auth/session')).status, 401);
    const again = await passwordLogin(browser, email);
    assert.equal(again.status, 200, 'the second factor is skipped');
    assert.deepEqual(again.body.data.methods.map((m: any) => m.method), ['password']);

    // Another browser (no cookie) is still asked.
    assert.equal((await passwordLogin(await readyClient(server(), 'browser'), email)).status, 401);
    // The app client never gets the trust stage.
    const app = await readyClient(server(), 'app');
    assert.equal((await passwordLogin(app, email)).status, 401);
    nextPeriod(server());
    const appDone = await app.post('/auth/2fa/authenticate', { code: totpAt(server(), secret) });
    assert.equal(appDone.status, 200);
  });

  it('declining logs in without a cookie', async () => {
    const { email, secret } = await totpAccount(server(), 'browser');
    const browser = await readyClient(server(), 'browser');
    await passwordLogin(browser, email);
    await browser.post('/auth/2fa/authenticate', { code: totpAt(server(), secret) });
    const declined = await browser.post('/auth/2fa/trust', { trust: false });
    assert.equal(declined.status, 200);
    assert.equal(browser.cookies.get('mfa_trusted'), undefined);
    await browser.delete('/auth/session');
    assert.equal((await passwordLogin(browser, email)).status, 401);
  });

  it('ends with a change of second factors or password, and after MFA_TRUST_COOKIE_AGE', async () => {
    const { client, email, secret } = await totpAccount(server(), 'browser');
    const browser = await readyClient(server(), 'browser');
    const trust = async () => {
      await passwordLogin(browser, email);
      nextPeriod(server());
      assert.equal((await browser.post('/auth/2fa/authenticate', { code: totpAt(server(), secret) })).status, 401);
      assert.equal((await browser.post('/auth/2fa/trust', { trust: true })).status, 200);
      await browser.delete('/auth/session');
      assert.equal((await passwordLogin(browser, email)).status, 200, 'trusted');
      await browser.delete('/auth/session');
    };
    await trust();
    // Regenerating recovery codes changes the setup: the trust is gone.
    assert.equal((await client.post('/auth/reauthenticate', { password: PASSWORD })).status, 200);
    assert.equal((await client.post('/account/authenticators/recovery-codes')).status, 200);
    assert.equal((await passwordLogin(browser, email)).status, 401);

    await trust();
    const newPassword = 'a different long phrase';
    const changed = await client.post('/account/password/change', { current_password: PASSWORD, new_password: newPassword });
    assert.equal(changed.status, 200);
    const afterChange = await passwordLogin(browser, email, newPassword);
    assert.equal(afterChange.status, 401, 'a password change ends the trust');
    assert.deepEqual(pendingFlow(afterChange.body)?.id, 'mfa_authenticate');
    nextPeriod(server());
    assert.equal((await browser.post('/auth/2fa/authenticate', { code: totpAt(server(), secret) })).status, 401);
    assert.equal((await browser.post('/auth/2fa/trust', { trust: true })).status, 200);
    await browser.delete('/auth/session');
    assert.equal((await passwordLogin(browser, email, newPassword)).status, 200);
    await browser.delete('/auth/session');

    server().clock.advance(14 * 86400_000 + 1000);
    assert.equal((await passwordLogin(browser, email, newPassword)).status, 401, 'expired after 14 days');
  });

  it('refuses a forged or foreign cookie', async () => {
    const { email } = await totpAccount(server(), 'browser');
    const browser = await readyClient(server(), 'browser');
    browser.cookies.set('mfa_trusted', `${Buffer.from(JSON.stringify([['x', Math.floor(Date.now() / 1000)]])).toString('base64url')}.forged`);
    assert.equal((await passwordLogin(browser, email)).status, 401);
  });

  it('answers 401 with is_authenticated null when no trust question is pending; bad input gets a JSON error', async () => {
    const browser = await readyClient(server(), 'browser');
    const response = await browser.post('/auth/2fa/trust', { trust: true });
    assert.equal(response.status, 401);
    assert.equal(response.body.meta.is_authenticated, null);
    assertError(await browser.post('/auth/2fa/trust', { trust: 'yes' }), 400, 'invalid', 'trust');
  });

  it('is not routed for the app client', async () => {
    const app = await readyClient(server(), 'app');
    assertError(await app.post('/auth/2fa/trust', { trust: true }), 404, 'not_found');
  });
});

describeEachDatabase('trust this browser, off', {}, ({ server }) => {
  it('is not routed and never asked', async () => {
    const { email, secret } = await totpAccount(server(), 'browser');
    const browser = await readyClient(server(), 'browser');
    assertError(await browser.post('/auth/2fa/trust', { trust: true }), 404, 'not_found');
    await passwordLogin(browser, email);
    assert.equal((await browser.post('/auth/2fa/authenticate', { code: totpAt(server(), secret) })).status, 200);
  });
});
