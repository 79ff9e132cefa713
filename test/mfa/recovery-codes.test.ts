import { it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase } from '../support/server.js';
import { assertError } from '../support/accounts.js';
import { CLIENTS, pendingSecondFactor, recoveryCodes, totpAccount, totpAt, verifiedAccount } from './support.js';

describeEachDatabase('recovery codes', {}, ({ server }) => {
  for (const kind of CLIENTS) {
    it(`lists ten 8-digit codes, each usable once at login (${kind})`, async () => {
      const { client, email } = await totpAccount(server(), kind);
      const view = await client.get('/account/authenticators/recovery-codes');
      assert.equal(view.status, 200);
      const data = view.body.data;
      assert.equal(data.type, 'recovery_codes');
      assert.equal(data.total_code_count, 10);
      assert.equal(data.unused_code_count, 10);
      assert.equal(data.last_used_at, null);
      assert.equal(data.unused_codes.length, 10);
      for (const code of data.unused_codes) assert.match(code, /^\d{8}$/);
      assert.deepEqual(await recoveryCodes(client), data.unused_codes, 'the same codes on every view');

      const code = data.unused_codes[3];
      const login = await pendingSecondFactor(server(), kind, email);
      const done = await login.post('/auth/2fa/authenticate', { code });
      assert.equal(done.status, 200, JSON.stringify(done.body));
      const mfa = done.body.data.methods.at(-1);
      assert.equal(mfa.method, 'mfa');
      assert.equal(mfa.type, 'recovery_codes');
      assert.equal(typeof mfa.id, 'number');

      const after = (await client.get('/account/authenticators/recovery-codes')).body.data;
      assert.equal(after.unused_code_count, 9);
      assert.ok(!after.unused_codes.includes(code));
      assert.deepEqual(after.unused_codes, data.unused_codes.filter((c: string) => c !== code), 'the others keep their order');
      assert.equal(typeof after.last_used_at, 'number');

      const again = await pendingSecondFactor(server(), kind, email);
      assertError(await again.post('/auth/2fa/authenticate', { code }), 400, 'incorrect_code', 'code');
    });
  }

  it('answers 404 without recovery codes', async () => {
    const { client } = await verifiedAccount(server(), 'app');
    assert.deepEqual((await client.get('/account/authenticators/recovery-codes')).body, { status: 404 });
  });

  it('refuses to make codes without TOTP or WebAuthn', async () => {
    const { client } = await verifiedAccount(server(), 'app');
    assertError(await client.post('/account/authenticators/recovery-codes'), 400, 'cannot_generate_recovery_codes');
  });

  it('regenerates a full new set; every old code stops working', async () => {
    const { client, email } = await totpAccount(server(), 'browser');
    const old = await recoveryCodes(client);
    const fresh = await client.post('/account/authenticators/recovery-codes', {});
    assert.equal(fresh.status, 200);
    assert.equal(fresh.body.data.unused_code_count, 10);
    assert.equal(fresh.body.data.unused_codes.length, 10);
    assert.notDeepEqual(fresh.body.data.unused_codes, old);
    const login = await pendingSecondFactor(server(), 'app', email);
    assertError(await login.post('/auth/2fa/authenticate', { code: old[0] }), 400, 'incorrect_code', 'code');
    assert.equal((await login.post('/auth/2fa/authenticate', { code: fresh.body.data.unused_codes[0] })).status, 200);
  });

  it('needs a recent authentication to view or regenerate, while the list does not', async () => {
    const { client, secret } = await totpAccount(server(), 'app');
    server().clock.advance(301_000);
    for (const response of [await client.get('/account/authenticators/recovery-codes'), await client.post('/account/authenticators/recovery-codes')]) {
      assert.equal(response.status, 401);
      assert.deepEqual(response.body.data.flows, [{ id: 'reauthenticate' }, { id: 'mfa_reauthenticate', types: ['recovery_codes', 'totp'] }]);
    }
    assert.equal((await client.get('/account/authenticators')).status, 200);
    assert.equal((await client.get('/account/authenticators/totp')).status, 200);
    assert.equal((await client.post('/auth/2fa/reauthenticate', { code: totpAt(server(), secret) })).status, 200);
    assert.equal((await client.get('/account/authenticators/recovery-codes')).status, 200);
  });

  it('reauthenticates with a recovery code, which is then spent', async () => {
    const { client } = await totpAccount(server(), 'app');
    const [code] = await recoveryCodes(client);
    server().clock.advance(301_000);
    const reauth = await client.post('/auth/2fa/reauthenticate', { code });
    assert.equal(reauth.status, 200);
    assert.equal(reauth.body.data.methods.at(-1).type, 'recovery_codes');
    const codes = await recoveryCodes(client);
    assert.equal(codes.length, 9);
    server().clock.advance(301_000);
    assertError(await client.post('/auth/2fa/reauthenticate', { code }), 400, 'incorrect_code', 'code');
  });

  it('accepts codes typed with spaces or dashes', async () => {
    const { client, email } = await totpAccount(server(), 'app');
    const [code] = await recoveryCodes(client);
    const login = await pendingSecondFactor(server(), 'app', email);
    assert.equal((await login.post('/auth/2fa/authenticate', { code: ` ${code!.slice(0, 4)}-${code!.slice(4)} ` })).status, 200);
  });
});

describeEachDatabase('recovery codes shown once', { MFA_RECOVERY_CODES_SHOW_ONCE: 'true', MFA_RECOVERY_CODE_COUNT: '12', MFA_RECOVERY_CODE_DIGITS: '10' }, ({ server }) => {
  it('lists the codes on the first view and after regenerating only', async () => {
    const { client } = await totpAccount(server(), 'app');
    const first = (await client.get('/account/authenticators/recovery-codes')).body.data;
    assert.equal(first.unused_codes.length, 12);
    for (const code of first.unused_codes) assert.match(code, /^\d{10}$/);
    const second = (await client.get('/account/authenticators/recovery-codes')).body.data;
    assert.equal(second.unused_codes, undefined);
    assert.equal(second.unused_code_count, 12);
    const regenerated = (await client.post('/account/authenticators/recovery-codes')).body.data;
    assert.equal(regenerated.unused_codes.length, 12);
    assert.equal((await client.get('/account/authenticators/recovery-codes')).body.data.unused_codes, undefined);
  });
});

describeEachDatabase('TOTP without recovery codes', { MFA_SUPPORTED_TYPES: 'totp' }, ({ server }) => {
  it('makes no recovery codes and does not route their endpoint', async () => {
    const { client } = await totpAccount(server(), 'app');
    assert.deepEqual((await client.get('/account/authenticators')).body.data.map((a: any) => a.type), ['totp']);
    assertError(await client.get('/account/authenticators/recovery-codes'), 404, 'not_found');
  });
});
