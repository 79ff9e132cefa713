import { it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase } from '../support/server.js';
import { PASSWORD, assertError, keyFromMail, nthMail, readyClient, uniqueEmail } from '../support/accounts.js';
import { CLIENTS, enableTotp, nextPeriod, pendingFlow, pendingSecondFactor, totpAccount, totpAt, verifiedAccount } from './support.js';

describeEachDatabase('TOTP setup', {}, ({ server }) => {
  for (const kind of CLIENTS) {
    it(`offers a new secret on every GET and activates only the latest (${kind})`, async () => {
      const { client, email } = await verifiedAccount(server(), kind);
      const first = await client.get('/account/authenticators/totp');
      assert.equal(first.status, 404);
      assert.equal(first.body.data, undefined);
      const { secret, totp_url, qr_code_url } = first.body.meta;
      assert.match(secret, /^[A-Z2-7]{32}$/);
      assert.equal(totp_url, `otpauth://totp/${encodeURIComponent(email)}?secret=${secret}&issuer=Headless%20Auth`);
      assert.match(qr_code_url, /^data:image\/svg\+xml;base64,/);
      assert.match(Buffer.from(qr_code_url.split(',')[1], 'base64').toString(), /<svg/);

      const second = await client.get('/account/authenticators/totp');
      assert.notEqual(second.body.meta.secret, secret);
      assertError(await client.post('/account/authenticators/totp', { code: totpAt(server(), secret) }), 400, 'incorrect_code', 'code');

      const activated = await client.post('/account/authenticators/totp', { code: totpAt(server(), second.body.meta.secret) });
      assert.equal(activated.status, 200);
      assert.deepEqual(Object.keys(activated.body.data).sort(), ['created_at', 'last_used_at', 'type']);
      assert.equal(activated.body.data.type, 'totp');
      assert.equal(activated.body.data.last_used_at, null);
      assert.equal(typeof activated.body.data.created_at, 'number');

      const shown = await client.get('/account/authenticators/totp');
      assert.equal(shown.status, 200);
      assert.equal(shown.body.data.type, 'totp');
      assert.equal(shown.body.meta, undefined, 'no secret once active');
    });
  }

  it('lists TOTP, then the recovery codes made with it, without the codes', async () => {
    const { client } = await totpAccount(server(), 'app');
    const list = await client.get('/account/authenticators');
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.body.data.map((a: any) => a.type),
      ['totp', 'recovery_codes'],
    );
    const codes = list.body.data[1];
    assert.equal(codes.total_code_count, 10);
    assert.equal(codes.unused_code_count, 10);
    assert.equal(codes.unused_codes, undefined);
  });

  it('lists nothing without MFA', async () => {
    const { client } = await verifiedAccount(server(), 'app');
    assert.deepEqual((await client.get('/account/authenticators')).body, { status: 200, data: [] });
  });

  it('answers 409 to a second activation instead of failing on the unique index', async () => {
    const { client } = await totpAccount(server(), 'app');
    const response = await client.post('/account/authenticators/totp', { code: '123456' });
    assert.equal(response.status, 409);
    assert.deepEqual(response.body, { status: 409 });
  });

  it('activates once when the same code is posted in parallel', async () => {
    const { client } = await verifiedAccount(server(), 'app');
    const secret = (await client.get('/account/authenticators/totp')).body.meta.secret;
    const code = totpAt(server(), secret);
    const burst = await Promise.all(Array.from({ length: 8 }, () => client.post('/account/authenticators/totp', { code })));
    const statuses = burst.map((r) => r.status);
    assert.equal(statuses.filter((s) => s === 200).length, 1, statuses.join());
    assert.ok(statuses.every((s) => s === 200 || s === 409 || s === 400), statuses.join());
    const list = await client.get('/account/authenticators');
    assert.deepEqual(list.body.data.map((a: any) => a.type), ['totp', 'recovery_codes']);
  });

  it('does not spend the activation code: it logs in right away, once', async () => {
    const { client, email } = await verifiedAccount(server(), 'browser');
    const secret = (await client.get('/account/authenticators/totp')).body.meta.secret;
    const code = totpAt(server(), secret);
    assert.equal((await client.post('/account/authenticators/totp', { code })).status, 200);

    const first = await pendingSecondFactor(server(), 'app', email);
    const done = await first.post('/auth/2fa/authenticate', { code });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    const totp = (await client.get('/account/authenticators')).body.data.find((a: any) => a.type === 'totp');
    assert.equal(typeof totp.last_used_at, 'number', 'last_used_at is set on use');

    // Used once: refused for the rest of its period, and the previous period's code too.
    const second = await pendingSecondFactor(server(), 'app', email);
    assertError(await second.post('/auth/2fa/authenticate', { code }), 400, 'incorrect_code', 'code');
    nextPeriod(server());
    assertError(await second.post('/auth/2fa/authenticate', { code: totpAt(server(), secret, -1) }), 400, 'incorrect_code', 'code');
    assert.equal((await second.post('/auth/2fa/authenticate', { code: totpAt(server(), secret) })).status, 200);
  });

  it('refuses setup while an address is unverified: 409 on GET, 400 on POST', async () => {
    const client = await readyClient(server(), 'app');
    assert.equal((await client.post('/auth/signup', { email: uniqueEmail(), password: PASSWORD })).status, 200);
    assert.equal((await client.post('/auth/reauthenticate', { password: PASSWORD })).status, 200);
    const offer = await client.get('/account/authenticators/totp');
    assertError(offer, 409, 'unverified_email');
    assertError(await client.post('/account/authenticators/totp', { code: '123456' }), 400, 'unverified_email', 'code');
  });

  it('asks to reauthenticate right after signup and verification: signing up proves no factor', async () => {
    const client = await readyClient(server(), 'app');
    const email = uniqueEmail();
    const signup = await client.post('/auth/signup', { email, password: PASSWORD });
    assert.deepEqual(signup.body.data.methods, []);
    const verified = await client.post('/auth/email/verify', { key: keyFromMail(await nthMail(server().mail, email, 1)) });
    assert.deepEqual(verified.body.data.methods, []);
    const secret = (await client.get('/account/authenticators/totp')).body.meta.secret;
    const refused = await client.post('/account/authenticators/totp', { code: totpAt(server(), secret) });
    assert.equal(refused.status, 401);
    assert.equal(refused.body.meta.is_authenticated, true);
    assert.deepEqual(refused.body.data.flows, [{ id: 'reauthenticate' }]);
    assert.equal((await client.post('/auth/reauthenticate', { password: PASSWORD })).status, 200);
    assert.equal((await client.post('/account/authenticators/totp', { code: totpAt(server(), secret) })).status, 200);
  });

  it('deactivates: TOTP and its recovery codes go, and logins ask no second factor', async () => {
    const { client, email } = await totpAccount(server(), 'app');
    const deleted = await client.delete('/account/authenticators/totp');
    assert.deepEqual(deleted.body, { status: 200 });
    assert.deepEqual((await client.get('/account/authenticators')).body.data, []);
    const login = await (await readyClient(server(), 'app')).post('/auth/login', { email, password: PASSWORD });
    assert.equal(login.status, 200);
    // Nothing to delete: 200 again, without asking for a recent login.
    server().clock.advance(301_000);
    assert.deepEqual((await client.delete('/account/authenticators/totp')).body, { status: 200 });
  });

  it('asks for a recent authentication to deactivate, listing both ways', async () => {
    const { client, secret } = await totpAccount(server(), 'app');
    server().clock.advance(301_000);
    const refused = await client.delete('/account/authenticators/totp');
    assert.equal(refused.status, 401);
    assert.deepEqual(refused.body.data.flows, [{ id: 'reauthenticate' }, { id: 'mfa_reauthenticate', types: ['recovery_codes', 'totp'] }]);
    assert.equal(refused.body.data.user.has_usable_password, true);
    const reauth = await client.post('/auth/2fa/reauthenticate', { code: totpAt(server(), secret) });
    assert.equal(reauth.status, 200);
    const last = reauth.body.data.methods.at(-1);
    assert.equal(last.method, 'mfa');
    assert.equal(last.type, 'totp');
    assert.equal(last.reauthenticated, undefined, 'as the reference records it');
    assert.equal((await client.delete('/account/authenticators/totp')).status, 200);
  });

  it('needs a login; during a pending login it answers with the pending stage', async () => {
    const anonymous = await readyClient(server(), 'app');
    for (const [method, path] of [['GET', '/account/authenticators'], ['GET', '/account/authenticators/totp'], ['DELETE', '/account/authenticators/totp']] as const) {
      const response = await anonymous.request(method, path);
      assert.equal(response.status, 401);
      assert.equal(response.body.meta.is_authenticated, false);
    }
    const { email } = await totpAccount(server(), 'app');
    const pending = await pendingSecondFactor(server(), 'app', email);
    const list = await pending.get('/account/authenticators');
    assert.equal(list.status, 401);
    assert.deepEqual(pendingFlow(list.body), { id: 'mfa_authenticate', is_pending: true, types: ['recovery_codes', 'totp'] });
  });

  it('refuses malformed codes with a JSON error naming the field', async () => {
    const { client } = await verifiedAccount(server(), 'browser');
    await client.get('/account/authenticators/totp');
    assertError(await client.post('/account/authenticators/totp', {}), 400, 'required', 'code');
    assertError(await client.post('/account/authenticators/totp', { code: '' }), 400, 'required', 'code');
    assertError(await client.post('/account/authenticators/totp', { code: 123456 }), 400, 'invalid', 'code');
    assertError(await client.post('/account/authenticators/totp', { code: 'x'.repeat(65) }), 400, 'invalid', 'code');
    assertError(await client.post('/account/authenticators/totp', { code: 'abcdef' }), 400, 'incorrect_code', 'code');
  });
});

describeEachDatabase('TOTP with tolerance, 8 digits and 60 s', { MFA_TOTP_TOLERANCE: '1', MFA_TOTP_DIGITS: '8', MFA_TOTP_PERIOD: '60', MFA_TOTP_ISSUER: 'Example Co' }, ({ server }) => {
  it('accepts the previous step within the tolerance and names digits and period in the URL', async () => {
    const { client, email } = await verifiedAccount(server(), 'app');
    const offer = await client.get('/account/authenticators/totp');
    const secret = offer.body.meta.secret;
    assert.equal(offer.body.meta.totp_url, `otpauth://totp/${encodeURIComponent(email)}?secret=${secret}&issuer=Example%20Co&digits=8&period=60`);
    assert.equal((await client.post('/account/authenticators/totp', { code: totpAt(server(), secret, 0, 60, 8) })).status, 200);
    const pending = await pendingSecondFactor(server(), 'app', email);
    assert.equal((await pending.post('/auth/2fa/authenticate', { code: totpAt(server(), secret, -1, 60, 8) })).status, 200);
    // The step before the one used is now refused, though inside the tolerance.
    const again = await pendingSecondFactor(server(), 'app', email);
    assertError(await again.post('/auth/2fa/authenticate', { code: totpAt(server(), secret, -2, 60, 8) }), 400, 'incorrect_code', 'code');
    assert.equal((await again.post('/auth/2fa/authenticate', { code: totpAt(server(), secret, 1, 60, 8) })).status, 200);
  });
});

describeEachDatabase('TOTP with unverified addresses allowed', { MFA_ALLOW_UNVERIFIED_EMAIL: 'true' }, ({ server }) => {
  it('sets up TOTP while the address is unverified', async () => {
    const client = await readyClient(server(), 'app');
    assert.equal((await client.post('/auth/signup', { email: uniqueEmail(), password: PASSWORD })).status, 200);
    assert.equal((await client.post('/auth/reauthenticate', { password: PASSWORD })).status, 200);
    await enableTotp(server(), client);
  });
});

describeEachDatabase('TOTP bypass code (development)', { MFA_TOTP_INSECURE_BYPASS_CODE: '000000' }, ({ server }) => {
  it('passes the configured code every time, and still refuses others', async () => {
    const { email } = await totpAccount(server(), 'app');
    for (let i = 0; i < 2; i++) {
      const pending = await pendingSecondFactor(server(), 'app', email);
      assertError(await pending.post('/auth/2fa/authenticate', { code: '111111' }), 400, 'incorrect_code', 'code');
      assert.equal((await pending.post('/auth/2fa/authenticate', { code: '000000' })).status, 200);
    }
  });
});
