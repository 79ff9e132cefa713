import { it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { describeEachDatabase } from '../support/server.js';
import { assertError, rawRequest, readyClient } from '../support/accounts.js';
import type { ApiClient } from '../support/client.js';
import { pendingSecondFactor, totpAccount, verifiedAccount } from './support.js';

// Bad input on every field of every MFA endpoint gets a JSON error in the
// envelope (400 with the field as param, or the state's 401/409), never a
// 500, an HTML page, or a half-written record.

const ENV = { MFA_SUPPORTED_TYPES: 'recovery_codes,totp,webauthn', MFA_PASSKEY_LOGIN_ENABLED: 'true', MFA_PASSKEY_SIGNUP_ENABLED: 'true', MFA_TRUST_ENABLED: 'true' };

/** Endpoints with a body, and the fields each takes. */
const BODIES: Array<{ method: 'POST' | 'PUT' | 'DELETE'; path: string; fields: string[] }> = [
  { method: 'POST', path: '/account/authenticators/totp', fields: ['code'] },
  { method: 'POST', path: '/auth/2fa/authenticate', fields: ['code'] },
  { method: 'POST', path: '/auth/2fa/reauthenticate', fields: ['code'] },
  { method: 'POST', path: '/auth/2fa/trust', fields: ['trust'] },
  { method: 'POST', path: '/account/authenticators/webauthn', fields: ['name', 'credential', 'passwordless'] },
  { method: 'PUT', path: '/account/authenticators/webauthn', fields: ['id', 'name'] },
  { method: 'DELETE', path: '/account/authenticators/webauthn', fields: ['authenticators'] },
  { method: 'POST', path: '/auth/webauthn/authenticate', fields: ['credential'] },
  { method: 'POST', path: '/auth/webauthn/reauthenticate', fields: ['credential'] },
  { method: 'POST', path: '/auth/webauthn/login', fields: ['credential'] },
  { method: 'PUT', path: '/auth/webauthn/signup', fields: ['name', 'credential'] },
];

/** A JSON envelope with a 4xx status, errors naming a code. */
function assertClientError(response: { status: number; body: any }, context: string): void {
  assert.ok(response.status >= 400 && response.status < 500 && response.status !== 404, `${context}: ${response.status} ${JSON.stringify(response.body)}`);
  assert.equal(response.body.status, response.status, context);
  if (response.status === 400) assert.ok(typeof response.body.errors?.[0]?.code === 'string', context);
}

describeEachDatabase('MFA input', ENV, ({ server }) => {
  it('answers generated bad values of every field with a JSON client error', async () => {
    const { client } = await totpAccount(server(), 'browser');
    const value = fc.oneof(fc.jsonValue(), fc.string(), fc.constant(null), fc.array(fc.integer()), fc.object());
    for (const { method, path, fields } of BODIES) {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...fields), value, async (field, bad) => {
          const response = await client.request(method, path, { [field]: bad });
          assertClientError(response, `${method} ${path} ${field}=${JSON.stringify(bad)}`);
        }),
        { numRuns: 15 },
      );
    }
    // Nothing was added or lost on the way.
    assert.deepEqual((await client.get('/account/authenticators')).body.data.map((a: any) => a.type), ['totp', 'recovery_codes']);
  });

  it('names the field: required, invalid', async () => {
    const { client } = await verifiedAccount(server(), 'app');
    assertError(await client.post('/auth/2fa/reauthenticate', {}), 400, 'required', 'code');
    assertError(await client.post('/auth/2fa/reauthenticate', { code: ['123456'] }), 400, 'invalid', 'code');
    assertError(await client.post('/account/authenticators/webauthn', {}), 400, 'required', 'credential');
    assertError(await client.post('/account/authenticators/webauthn', { credential: 'abc' }), 400, 'invalid', 'credential');
    assertError(await client.post('/account/authenticators/webauthn', { credential: {}, name: 7 }), 400, 'invalid', 'name');
    assertError(await client.put('/account/authenticators/webauthn', { id: 'one', name: 'x' }), 400, 'invalid', 'id');
    assertError(await client.put('/account/authenticators/webauthn', { id: 1 }), 400, 'required', 'name');
    assertError(await client.delete('/account/authenticators/webauthn', { authenticators: [] }), 400, 'required', 'authenticators');
    assertError(await client.delete('/account/authenticators/webauthn', { authenticators: [12345] }), 400, 'invalid_choice', 'authenticators');
    assertError(await client.delete('/account/authenticators/webauthn', { authenticators: 'all' }), 400, 'invalid', 'authenticators');
  });

  it('refuses a credential that is not one, or comes without options', async () => {
    const { client } = await verifiedAccount(server(), 'app');
    // No options fetched: nothing to check it against.
    assertError(await client.post('/account/authenticators/webauthn', { credential: { id: 'AAAA', rawId: 'AAAA', type: 'public-key', response: {} } }), 400, 'incorrect_code');
    assert.equal((await client.get('/account/authenticators/webauthn')).status, 200);
    for (const credential of [{}, { id: 5 }, { id: 'AAAA', response: 'x' }, { id: 'AAAA', rawId: 'AAAA', type: 'public-key', response: { clientDataJSON: '!!', attestationObject: '??' } }]) {
      assertError(await client.post('/account/authenticators/webauthn', { credential }), 400, 'incorrect_code');
    }
    assert.deepEqual((await client.get('/account/authenticators')).body.data, []);
  });

  it('refuses passkey logins whose user handle names nobody, or come without options', async () => {
    const visitor = await readyClient(server(), 'app');
    const assertion = (userHandle: unknown) => ({ id: 'AAAA', rawId: 'AAAA', type: 'public-key', response: { clientDataJSON: 'e30', authenticatorData: 'AA', signature: 'AA', userHandle } });
    assertError(await visitor.post('/auth/webauthn/login', { credential: assertion(Buffer.from('1').toString('base64url')) }), 400, 'incorrect_code', 'credential');
    const options = await visitor.get('/auth/webauthn/login');
    assert.equal(options.status, 200);
    assert.ok(visitor.sessionToken, 'the challenge lives in a session made for it');
    for (const handle of [undefined, 42, 'not base64 at all!', Buffer.from('0').toString('base64url'), Buffer.from('99999999').toString('base64url'), 'x'.repeat(100)]) {
      assertError(await visitor.post('/auth/webauthn/login', { credential: assertion(handle) }), 400, 'incorrect_code', 'credential');
    }
  });

  it('answers 401 (is_authenticated null) or 409 when the stage is not pending', async () => {
    const visitor = await readyClient(server(), 'browser');
    const options = await visitor.get('/auth/webauthn/authenticate');
    assert.equal(options.status, 401);
    assert.equal(options.body.meta.is_authenticated, null);
    assert.equal((await visitor.post('/auth/webauthn/authenticate', { credential: {} })).body.meta.is_authenticated, null);
    assert.deepEqual((await visitor.get('/auth/webauthn/signup')).body, { status: 409 });
    assert.deepEqual((await visitor.put('/auth/webauthn/signup', { credential: {} })).body, { status: 409 });
    assert.equal((await visitor.get('/auth/webauthn/reauthenticate')).status, 401);
  });

  it('keeps a pending second factor through bad input', async () => {
    const { email } = await totpAccount(server(), 'app');
    const pending: ApiClient = await pendingSecondFactor(server(), 'app', email);
    assertError(await pending.post('/auth/webauthn/authenticate', { credential: { id: 'x' } }), 400, 'incorrect_code', 'credential');
    const options = await pending.get('/auth/webauthn/authenticate');
    assert.deepEqual(options.body.data.request_options.publicKey.allowCredentials, [], 'a TOTP user has no keys to offer');
    assertError(await pending.post('/auth/2fa/authenticate', { code: null }), 400, 'invalid', 'code');
    const session = await pending.get('/auth/session');
    assert.equal(session.body.data.flows.at(-1).id, 'mfa_authenticate');
  });

  it('answers malformed JSON on an MFA route with the JSON envelope', async () => {
    const response = await rawRequest(server(), 'app', 'POST', '/auth/2fa/authenticate', { body: '{"code":', headers: { 'content-type': 'application/json' } });
    assertError(response, 400, 'invalid_json');
  });
});

describeEachDatabase('MFA routes follow the settings', { MFA_SUPPORTED_TYPES: 'totp' }, ({ server }) => {
  it('routes only the supported types; no passkey or trust routes unless enabled', async () => {
    const { client } = await verifiedAccount(server(), 'browser');
    for (const [method, path] of [
      ['GET', '/account/authenticators/webauthn'],
      ['GET', '/account/authenticators/recovery-codes'],
      ['GET', '/auth/webauthn/login'],
      ['POST', '/auth/webauthn/signup'],
      ['POST', '/auth/2fa/trust'],
    ] as const) {
      assertError(await client.request(method, path, method === 'GET' ? undefined : {}), 404, 'not_found');
    }
    const config = await client.get('/config');
    assert.deepEqual(config.body.data.mfa, { supported_types: ['totp'], passkey_login_enabled: false });
  });
});

describeEachDatabase('MFA off', { MFA_ENABLED: 'false' }, ({ server }) => {
  it('routes nothing, asks nothing and shows no mfa section', async () => {
    const client = await readyClient(server(), 'app');
    assert.equal((await client.get('/config')).body.data.mfa, undefined);
    assertError(await client.get('/account/authenticators'), 404, 'not_found');
    assertError(await client.post('/auth/2fa/authenticate', { code: '1' }), 404, 'not_found');
  });
});
