import { it, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';
import { describeEachDatabase, type TestServer } from '../support/server.js';
import { assertError, readyClient } from '../support/accounts.js';
import type { ApiClient } from '../support/client.js';
import { assertSameTime } from '../support/timing.js';
import { insertWebAuthn } from '../../src/store/mfa-authenticators.js';
import { verifiedAccount } from './support.js';

// Passkey login over plain HTTP, with a software authenticator: a P-256 key
// made here, registered straight into the store, and assertions signed with
// it (or with another key) for the challenge of GET /auth/webauthn/login.
// The default settings put the RP id at localhost and the one origin at
// FRONTEND_URL's.

const ENV = { MFA_SUPPORTED_TYPES: 'recovery_codes,totp,webauthn', MFA_PASSKEY_LOGIN_ENABLED: 'true' };
const ORIGIN = 'http://localhost:3000';
const b64url = (bytes: Buffer) => bytes.toString('base64url');

interface SoftKey {
  credentialId: string;
  privateKey: KeyObject;
  /** COSE_Key, base64url, as the store keeps it. */
  publicKey: string;
}

function softKey(): SoftKey {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const { x, y } = publicKey.export({ format: 'jwk' });
  const cose = new Map<number, number | Uint8Array>([[1, 2], [3, -7], [-1, 1], [-2, Buffer.from(x!, 'base64url')], [-3, Buffer.from(y!, 'base64url')]]);
  return { credentialId: b64url(randomBytes(16)), privateKey, publicKey: b64url(Buffer.from(isoCBOR.encode(cose))) };
}

/** An assertion for `challenge` naming `credentialId`, signed by `signer` with user presence and verification. */
function assertion(challenge: string, credentialId: string, signer: KeyObject, userHandle: string) {
  const clientData = Buffer.from(JSON.stringify({ type: 'webauthn.get', challenge, origin: ORIGIN, crossOrigin: false }));
  const authenticatorData = Buffer.concat([createHash('sha256').update('localhost').digest(), Buffer.from([0x05]), Buffer.from([0, 0, 0, 1])]);
  const signature = sign('sha256', Buffer.concat([authenticatorData, createHash('sha256').update(clientData).digest()]), signer);
  return {
    id: credentialId,
    rawId: credentialId,
    type: 'public-key',
    response: { clientDataJSON: b64url(clientData), authenticatorData: b64url(authenticatorData), signature: b64url(signature), userHandle: b64url(Buffer.from(userHandle)) },
    clientExtensionResults: {},
  };
}

/** An account with `key` registered as its passkey; its id. */
async function accountWithPasskey(server: TestServer, key: SoftKey): Promise<number> {
  const { client } = await verifiedAccount(server, 'app');
  const userId: number = (await client.get('/auth/session')).body.data.user.id;
  const stored = await insertWebAuthn(server.app.deps.db, { userId, credentialId: key.credentialId, signCount: 0, now: server.clock.now(), name: 'Soft key', publicKey: key.publicKey, transports: [], passwordless: true });
  assert.ok(stored);
  return userId;
}

/** A visitor holding the challenge of a passkey login. */
async function loginOptions(server: TestServer): Promise<{ visitor: ApiClient; challenge: string }> {
  const visitor = await readyClient(server, 'app');
  const options = await visitor.get('/auth/webauthn/login');
  assert.equal(options.status, 200, JSON.stringify(options.body));
  return { visitor, challenge: options.body.data.request_options.publicKey.challenge };
}

async function anonymousSessions(server: TestServer): Promise<number> {
  const row = await server.app.deps.db.selectFrom('sessions').select((eb) => eb.fn.countAll<string | number>().as('n')).where('user_id', 'is', null).executeTakeFirstOrThrow();
  return Number(row.n);
}

describeEachDatabase(
  'regression: GET /auth/webauthn/login stored a session for every caller without one, with no limit',
  { ...ENV, ACCOUNT_RATE_LIMITS: JSON.stringify({ passkey_login_session: '3/m/ip' }) },
  ({ server }) => {
    it('counts the sessions it stores per address (passkey_login_session); a caller with a session is not counted', async () => {
      const first = await loginOptions(server());
      await loginOptions(server());
      await loginOptions(server());
      const stored = await anonymousSessions(server());

      const app = server().client('app');
      const refused = await app.get('/auth/webauthn/login');
      assert.equal(refused.status, 429);
      assert.deepEqual(refused.body, { status: 429 });
      assert.ok(Number(refused.headers.get('retry-after')) >= 1);
      assert.equal(app.sessionToken, undefined);
      const browser = await readyClient(server(), 'browser');
      assert.equal((await browser.get('/auth/webauthn/login')).status, 429);
      assert.equal(await anonymousSessions(server()), stored, 'no session stored for a refused caller');

      // New options for a session already held: its challenge is replaced, nothing is added.
      const again = await first.visitor.get('/auth/webauthn/login');
      assert.equal(again.status, 200);
      assert.notEqual(again.body.data.request_options.publicKey.challenge, first.challenge);
      assert.equal(again.body.meta?.session_token, undefined);
      assert.equal(await anonymousSessions(server()), stored);
    });
  },
);

describeEachDatabase(
  'regression: a passkey login naming an unknown credential spent no limit',
  { ...ENV, ACCOUNT_RATE_LIMITS: JSON.stringify({ login_failed: '3/m/ip' }) },
  ({ server }) => {
    it('refuses unknown credentials as wrong signatures, each spending the failed-login limit of the address', async () => {
      const { visitor, challenge } = await loginOptions(server());
      const stranger = softKey();
      for (let i = 0; i < 3; i++) {
        const credential = assertion(challenge, b64url(randomBytes(16)), stranger.privateKey, '1');
        assertError(await visitor.post('/auth/webauthn/login', { credential }), 400, 'incorrect_code', 'credential');
      }
      // Refused however it is signed: the address has spent its attempts.
      const key = softKey();
      const userId = await accountWithPasskey(server(), key);
      const right = assertion(challenge, key.credentialId, key.privateKey, String(userId));
      assertError(await visitor.post('/auth/webauthn/login', { credential: right }), 400, 'too_many_login_attempts', 'credential');
    });
  },
);

describeEachDatabase('passkey login with a software key', ENV, ({ server }) => {
  it('logs in with the registered key; a wrong signature on it is refused like an unknown credential', async () => {
    const key = softKey();
    const userId = await accountWithPasskey(server(), key);
    const { visitor, challenge } = await loginOptions(server());
    const forged = assertion(challenge, key.credentialId, softKey().privateKey, String(userId));
    assertError(await visitor.post('/auth/webauthn/login', { credential: forged }), 400, 'incorrect_code', 'credential');
    const done = await visitor.post('/auth/webauthn/login', { credential: assertion(challenge, key.credentialId, key.privateKey, String(userId)) });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.equal(done.body.data.user.id, userId);
    assert.deepEqual(
      done.body.data.methods.map((m: any) => [m.method, m.type, m.passwordless]),
      [['mfa', 'webauthn', true]],
    );
  });

  it('regression: an unknown credential id and a wrong signature on a known one take the same time', async (t: TestContext) => {
    const key = softKey();
    const userId = await accountWithPasskey(server(), key);
    const forger = softKey().privateKey;
    const { visitor, challenge } = await loginOptions(server());
    const refused = (credentialId: string) => async () => {
      const credential = assertion(challenge, credentialId, forger, String(userId));
      assertError(await visitor.post('/auth/webauthn/login', { credential }), 400, 'incorrect_code', 'credential');
    };
    const known = refused(key.credentialId);
    const unknown = () => refused(b64url(randomBytes(16)))();
    for (let i = 0; i < 10; i++) await Promise.all([known(), unknown()]);
    await assertSameTime(t, 200, known, unknown);
  });
});

describeEachDatabase('regression: a passkey does not log in a user deactivated since registering it (issue 22 item 9)', ENV, ({ server }) => {
  for (const kind of ['app', 'browser'] as const) {
    it(`a valid assertion answers account_inactive and logs no one in (${kind})`, async () => {
      const key = softKey();
      const userId = await accountWithPasskey(server(), key);
      await server().app.deps.db.updateTable('users').set({ is_active: 0 }).where('id', '=', userId).execute();
      const visitor = await readyClient(server(), kind);
      const options = await visitor.get('/auth/webauthn/login');
      assert.equal(options.status, 200, JSON.stringify(options.body));
      const challenge: string = options.body.data.request_options.publicKey.challenge;
      const done = await visitor.post('/auth/webauthn/login', { credential: assertion(challenge, key.credentialId, key.privateKey, String(userId)) });
      assertError(done, 400, 'account_inactive');
      assert.equal(done.body.meta?.is_authenticated, undefined);
      const session = await visitor.get('/auth/session');
      assert.ok(session.status === 401 || session.status === 410, JSON.stringify(session.body));
      assert.notEqual(session.body.meta?.is_authenticated, true);
      const failed = await server().app.deps.db.selectFrom('audit_events').select('detail').where('type', '=', 'login.failed').where('user_id', '=', userId).execute();
      assert.ok(failed.some((e) => String(e.detail).includes('inactive')), 'the refusal is in the audit trail');
    });
  }
});
