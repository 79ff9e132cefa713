import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.js';
import { createTestDatabase, type TestDatabase } from '../support/databases.js';
import { ApiClient } from '../support/client.js';
import { PASSWORD, readyClient, uniqueEmail } from '../support/accounts.js';
import { bearer, headerOf, jwtEnv, rsaPrivateKeyPem, signUp, type SignedUp } from '../tokens/support.js';
import { sidCodec } from '../../src/tokens/sid.js';

// SECRET_KEY and the JWT key rotate without logging anyone out: restarted
// with new keys and the old ones as fallbacks, the server still accepts
// what the old keys made (CSRF tokens, access and refresh tokens, sealed
// data) and makes everything new with the new keys; restarted once more
// without the fallbacks, the old material stops working.

const OLD_SECRET = 'old-secret-key-before-rotation-0123456789abcdef';
const NEW_SECRET = 'new-secret-key-after-rotation-0123456789abcdef';
const OLD_JWT = rsaPrivateKeyPem('rotation-old');
const NEW_JWT = rsaPrivateKeyPem('rotation-new');

/** The same browser, pointed at a restarted server. */
function moved(client: ApiClient, server: TestServer): ApiClient {
  const copy = server.client(client.kind);
  for (const [name, value] of client.cookies) copy.cookies.set(name, value);
  return copy;
}

/** An unsafe browser request that passes CSRF answers 400 (wrong password), one that fails it 403. */
async function csrfAccepted(browser: ApiClient): Promise<boolean> {
  const response = await browser.post('/account/password/change', { current_password: 'not the password', new_password: 'an unused new passphrase' });
  assert.ok(response.status === 400 || response.status === 403, JSON.stringify(response.body));
  return response.status === 400;
}

describe('key rotation with fallbacks (RS256)', () => {
  let database: TestDatabase;
  let server: TestServer | undefined;
  const start = async (env: Record<string, string>) => {
    await server?.close();
    server = await startTestServer('sqlite', jwtEnv(env), { database });
    return server;
  };
  before(async () => {
    database = await createTestDatabase('sqlite');
  });
  after(async () => {
    await server?.close();
    await database?.drop();
  });

  let browser: ApiClient;
  let kept: SignedUp;
  let spare: SignedUp;
  let sealed: string;
  let fresh: { access: string; refresh: string };
  let rotatedBrowser: ApiClient;

  it('old keys: a browser session, two app sessions with tokens, a sealed secret', async () => {
    const first = await start({ SECRET_KEY: OLD_SECRET, HEADLESS_JWT_PRIVATE_KEY: OLD_JWT });
    browser = await readyClient(first, 'browser');
    assert.equal((await browser.post('/auth/signup', { email: uniqueEmail('rotation'), password: PASSWORD })).status, 200);
    assert.equal(await csrfAccepted(browser), true);
    kept = await signUp(first, 'kept');
    spare = await signUp(first, 'spare');
    sealed = first.app.deps.atRest.seal('a TOTP secret', 'totp:1');
  });

  it('rotated, old keys as fallbacks: everything survives the restart; new material uses the new keys', async () => {
    const second = await start({
      SECRET_KEY: NEW_SECRET,
      SECRET_KEY_FALLBACKS: OLD_SECRET,
      HEADLESS_JWT_PRIVATE_KEY: NEW_JWT,
      HEADLESS_JWT_PRIVATE_KEY_FALLBACKS: OLD_JWT,
    });
    const sameBrowser = moved(browser, second);
    assert.equal(await csrfAccepted(sameBrowser), true, 'the CSRF token signed with the old SECRET_KEY');
    assert.notEqual(sameBrowser.cookies.get('csrftoken'), browser.cookies.get('csrftoken'), 'and replaced by one signed with the new key');
    assert.equal((await sameBrowser.get('/auth/session')).status, 200);
    assert.equal(await csrfAccepted(sameBrowser), true);
    rotatedBrowser = sameBrowser;

    const app = second.client('app');
    assert.equal((await app.get('/auth/session', bearer(kept.accessToken))).status, 200, 'an access token signed with the old key');
    const refreshed = await app.post('/tokens/refresh', { refresh_token: kept.refreshToken });
    assert.equal(refreshed.status, 200, 'a refresh token signed with the old key');
    fresh = { access: refreshed.body.data.access_token, refresh: refreshed.body.data.refresh_token };

    const jwks = (await app.get('/.well-known/jwks.json')).body as { keys: Array<{ kid: string }> };
    const [newKid, oldKid] = jwks.keys.map((k) => k.kid);
    assert.equal(jwks.keys.length, 2);
    assert.equal(headerOf(kept.accessToken).kid, oldKid);
    assert.equal(headerOf(fresh.access).kid, newKid, 'new tokens are signed with the new key');
    const sid = JSON.parse(Buffer.from(fresh.access.split('.')[1]!, 'base64url').toString()).sid;
    assert.equal(sidCodec([NEW_SECRET]).decrypt(sid), kept.sessionToken, 'new sids are encrypted with the new SECRET_KEY');

    assert.equal(second.app.deps.atRest.open(sealed, 'totp:1'), 'a TOTP secret');
    assert.equal(second.app.deps.atRest.isStale(second.app.deps.atRest.seal('x', 'totp:2')), false, 'new data is sealed with the new key');
  });

  it('fallbacks removed: old CSRF tokens, tokens and sealed data stop working, new ones keep working', async () => {
    const third = await start({ SECRET_KEY: NEW_SECRET, HEADLESS_JWT_PRIVATE_KEY: NEW_JWT });
    const sameBrowser = moved(browser, third);
    const refused = await sameBrowser.post('/account/password/change', { current_password: PASSWORD, new_password: 'an unused new passphrase' });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.errors[0].code, 'csrf_failed');

    const app = third.client('app');
    const stale = await app.get('/auth/session', bearer(spare.accessToken));
    assert.equal(stale.status, 401, 'an access token whose kid names no known key');
    assert.equal(stale.body.meta.is_authenticated, false);
    const refresh = await app.post('/tokens/refresh', { refresh_token: spare.refreshToken });
    assert.equal(refresh.status, 400);
    assert.equal(refresh.body.errors[0].code, 'invalid_token');
    assert.deepEqual(
      ((await app.get('/.well-known/jwks.json')).body as { keys: Array<{ kid: string }> }).keys.map((k) => k.kid),
      [headerOf(fresh.access).kid],
    );
    assert.equal(third.app.deps.atRest.open(sealed, 'totp:1'), null);

    assert.equal(await csrfAccepted(moved(rotatedBrowser, third)), true, 'the CSRF token re-issued after the rotation');
    assert.equal((await app.get('/auth/session', bearer(fresh.access))).status, 200, 'made after the rotation');
    assert.equal((await app.post('/tokens/refresh', { refresh_token: fresh.refresh })).status, 200);
  });
});

describe('key rotation of an HS256 key derived from SECRET_KEY', () => {
  let database: TestDatabase;
  let server: TestServer | undefined;
  const hs = (env: Record<string, string>) => ({ HEADLESS_JWT_ALGORITHM: 'HS256', HEADLESS_JWT_PRIVATE_KEY: '', ...env });
  before(async () => {
    database = await createTestDatabase('sqlite');
  });
  after(async () => {
    await server?.close();
    await database?.drop();
  });

  it('SECRET_KEY_FALLBACKS keeps its tokens valid until removed', async () => {
    server = await startTestServer('sqlite', jwtEnv(hs({ SECRET_KEY: OLD_SECRET })), { database });
    const account = await signUp(server, 'hs');
    assert.equal(headerOf(account.accessToken).kid, undefined, 'HS tokens name no key, as the reference');
    await server.close();

    server = await startTestServer('sqlite', jwtEnv(hs({ SECRET_KEY: NEW_SECRET, SECRET_KEY_FALLBACKS: OLD_SECRET })), { database });
    assert.equal((await server.client('app').get('/auth/session', bearer(account.accessToken))).status, 200);
    await server.close();

    server = await startTestServer('sqlite', jwtEnv(hs({ SECRET_KEY: NEW_SECRET })), { database });
    assert.equal((await server.client('app').get('/auth/session', bearer(account.accessToken))).status, 401);
    const refresh = await server.client('app').post('/tokens/refresh', { refresh_token: account.refreshToken });
    assert.equal(refresh.body.errors[0].code, 'invalid_token');
  });
});
