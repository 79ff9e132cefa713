import { it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase } from '../support/server.js';
import { hashSecret } from '../../src/security/secrets.js';
import { bearer, jwtEnv, signUp } from './support.js';

// Refresh-token rotation, reuse detection and the reuse grace window.

describeEachDatabase('refresh without rotation', jwtEnv({ HEADLESS_JWT_ROTATE_REFRESH_TOKEN: 'false' }), ({ server }) => {
  it('returns only an access token, and the refresh token keeps working until it expires', async () => {
    const account = await signUp(server(), 'no-rotate');
    const app = server().client('app');
    for (let i = 0; i < 3; i++) {
      const response = await app.post('/tokens/refresh', { refresh_token: account.refreshToken });
      assert.equal(response.status, 200);
      assert.deepEqual(Object.keys(response.body.data), ['access_token']);
      assert.equal((await server().client('app').get('/auth/session', bearer(response.body.data.access_token))).status, 200);
    }
    const sessionForm = await app.post('/auth/session', { refresh_token: account.refreshToken });
    assert.equal(sessionForm.status, 200);
    assert.ok(sessionForm.body.meta.access_token);
    assert.equal(sessionForm.body.meta.refresh_token, undefined);
    server().clock.advance(86_401_000);
    assert.equal((await app.post('/tokens/refresh', { refresh_token: account.refreshToken })).status, 400);
  });
});

describeEachDatabase('refresh-token reuse detection', jwtEnv(), ({ server }) => {
  it('a rotated refresh token presented again revokes the whole family and its session', async () => {
    const account = await signUp(server(), 'reuse');
    const app = server().client('app');
    const first = await app.post('/tokens/refresh', { refresh_token: account.refreshToken });
    assert.equal(first.status, 200);
    const second = await app.post('/tokens/refresh', { refresh_token: first.body.data.refresh_token });
    assert.equal(second.status, 200);
    const { access_token, refresh_token } = second.body.data;

    const db = server().app.deps.db;
    const { family_id } = await db.selectFrom('refresh_tokens').select('family_id').where('token_hash', '=', hashSecret(account.refreshToken)).executeTakeFirstOrThrow();
    assert.equal((await db.selectFrom('refresh_tokens').select('id').where('family_id', '=', family_id).execute()).length, 3);

    // The thief replays the first token: 400, as in the reference ...
    const replay = await app.post('/tokens/refresh', { refresh_token: account.refreshToken });
    assert.equal(replay.status, 400);
    assert.equal(replay.body.errors[0].code, 'invalid_token');
    // ... and the whole chain dies with the session, the newest tokens included.
    assert.equal((await app.post('/tokens/refresh', { refresh_token })).status, 400);
    assert.equal((await server().client('app').get('/auth/session', bearer(access_token))).status, 410);
    assert.equal((await account.client.get('/auth/session')).status, 410);
    assert.equal((await db.selectFrom('refresh_tokens').select('id').where('family_id', '=', family_id).execute()).length, 0);
    const sessions = await db.selectFrom('sessions').select('id').where('user_id', '=', account.userId).execute();
    assert.equal(sessions.length, 0);
  });

  it('without a grace window an immediate retry is reuse too', async () => {
    const account = await signUp(server(), 'no-grace');
    const app = server().client('app');
    assert.equal((await app.post('/tokens/refresh', { refresh_token: account.refreshToken })).status, 200);
    assert.equal((await app.post('/tokens/refresh', { refresh_token: account.refreshToken })).status, 400);
    assert.equal((await account.client.get('/auth/session')).status, 410);
  });

  it('revocation of one session leaves the same user\'s other sessions alone', async () => {
    const account = await signUp(server(), 'two-sessions');
    const other = server().client('app');
    const login = await other.post('/auth/login', { email: account.email, password: 'a long secret phrase' });
    assert.equal(login.status, 200);
    const app = server().client('app');
    assert.equal((await app.post('/tokens/refresh', { refresh_token: account.refreshToken })).status, 200);
    assert.equal((await app.post('/tokens/refresh', { refresh_token: account.refreshToken })).status, 400);
    assert.equal((await other.get('/auth/session')).status, 200);
    assert.equal((await app.post('/tokens/refresh', { refresh_token: login.body.meta.refresh_token })).status, 200);
  });
});

describeEachDatabase('refresh-token reuse grace window', jwtEnv({ HEADLESS_JWT_REFRESH_TOKEN_REUSE_GRACE: '10' }), ({ server }) => {
  it('a retry within the window gets the same successor, never a second chain', async () => {
    const account = await signUp(server(), 'grace');
    const app = server().client('app');
    const first = await app.post('/tokens/refresh', { refresh_token: account.refreshToken });
    assert.equal(first.status, 200);
    server().clock.advance(5_000);
    const retry = await app.post('/tokens/refresh', { refresh_token: account.refreshToken });
    assert.equal(retry.status, 200);
    assert.equal(retry.body.data.refresh_token, first.body.data.refresh_token);
    assert.equal((await server().client('app').get('/auth/session', bearer(retry.body.data.access_token))).status, 200);
    // The successor is the one live token of the chain.
    const next = await app.post('/tokens/refresh', { refresh_token: first.body.data.refresh_token });
    assert.equal(next.status, 200);
    assert.equal((await server().client('app').get('/auth/session', bearer(next.body.data.access_token))).status, 200);
  });

  it('after the window, or once the successor has been used, a replay revokes the family', async () => {
    const late = await signUp(server(), 'grace-late');
    const app = server().client('app');
    assert.equal((await app.post('/tokens/refresh', { refresh_token: late.refreshToken })).status, 200);
    server().clock.advance(10_001);
    assert.equal((await app.post('/tokens/refresh', { refresh_token: late.refreshToken })).status, 400);
    assert.equal((await late.client.get('/auth/session')).status, 410);

    const used = await signUp(server(), 'grace-used');
    const first = await app.post('/tokens/refresh', { refresh_token: used.refreshToken });
    assert.equal((await app.post('/tokens/refresh', { refresh_token: first.body.data.refresh_token })).status, 200);
    assert.equal((await app.post('/tokens/refresh', { refresh_token: used.refreshToken })).status, 400);
    assert.equal((await used.client.get('/auth/session')).status, 410);
  });
});
