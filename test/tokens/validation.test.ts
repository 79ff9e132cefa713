import { it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase } from '../support/server.js';
import { bearer, jwtEnv, PASSWORD, signUp } from './support.js';
import { closeDatabase, openDatabase } from '../../src/store/db.js';

// HEADLESS_JWT_STATEFUL_VALIDATION_ENABLED: access tokens die with their
// session (401); refresh tokens die with it under either setting.

describeEachDatabase('stateful validation', jwtEnv({ HEADLESS_JWT_STATEFUL_VALIDATION_ENABLED: 'true', HEADLESS_JWT_ACCESS_TOKEN_EXPIRES_IN: '3600', SESSION_COOKIE_AGE: '600' }), ({ server }) => {
  const fresh = () => server().client('app');

  it('logout: the access token gets 401 at once, the refresh token 400', async () => {
    const account = await signUp(server(), 'sf-logout');
    assert.equal((await fresh().get('/auth/session', bearer(account.accessToken))).status, 200);
    assert.equal((await fresh().delete('/auth/session', undefined, bearer(account.accessToken))).status, 401);
    const after = await fresh().get('/auth/session', bearer(account.accessToken));
    assert.equal(after.status, 401);
    assert.equal(after.body.meta.is_authenticated, false);
    assert.equal((await fresh().post('/tokens/refresh', { refresh_token: account.refreshToken })).status, 400);
  });

  it('password change: tokens of the old key get 401', async () => {
    const account = await signUp(server(), 'sf-password');
    const change = await fresh().post('/account/password/change', { current_password: PASSWORD, new_password: 'another long phrase 42' }, bearer(account.accessToken));
    assert.equal(change.status, 200);
    assert.equal((await fresh().get('/auth/session', bearer(account.accessToken))).status, 401);
    assert.equal((await fresh().get('/auth/session', bearer(change.body.meta.access_token))).status, 200);
  });

  it('account deletion: the access token gets 401, the refresh token 400', async () => {
    const account = await signUp(server(), 'sf-deleted');
    await server().app.deps.db.deleteFrom('users').where('id', '=', account.userId).execute();
    assert.equal((await fresh().get('/auth/session', bearer(account.accessToken))).status, 401);
    assert.equal((await fresh().post('/tokens/refresh', { refresh_token: account.refreshToken })).status, 400);
  });

  it('session expiry: an unexpired access token gets 401 once its session has expired', async () => {
    const account = await signUp(server(), 'sf-expiry');
    server().clock.advance(601_000);
    assert.equal((await fresh().get('/auth/session', bearer(account.accessToken))).status, 401);
    assert.equal((await fresh().post('/tokens/refresh', { refresh_token: account.refreshToken })).status, 400);
  });
});

describeEachDatabase('stateless validation', jwtEnv({ HEADLESS_JWT_ACCESS_TOKEN_EXPIRES_IN: '3600', SESSION_COOKIE_AGE: '600' }), ({ server }) => {
  const fresh = () => server().client('app');

  it('a genuine token whose session is gone gets 410 (drop it), its refresh token 400', async () => {
    const account = await signUp(server(), 'sl-deleted');
    await server().app.deps.db.deleteFrom('users').where('id', '=', account.userId).execute();
    const response = await fresh().get('/auth/session', bearer(account.accessToken));
    assert.equal(response.status, 410);
    assert.equal(response.body.meta.is_authenticated, null);
    assert.equal((await fresh().post('/tokens/refresh', { refresh_token: account.refreshToken })).status, 400);
  });

  it('session expiry: refresh tokens die with the session even when their own exp is later', async () => {
    const account = await signUp(server(), 'sl-expiry');
    server().clock.advance(601_000);
    assert.equal((await fresh().post('/tokens/refresh', { refresh_token: account.refreshToken })).status, 400);
    assert.equal((await fresh().get('/auth/session', bearer(account.accessToken))).status, 410);
  });
});

describeEachDatabase('stateless snapshot', jwtEnv({ HEADLESS_JWT_ACCESS_TOKEN_EXPIRES_IN: '3600', HEADLESS_JWT_STATELESS_SNAPSHOT_SECONDS: '5' }), ({ server }) => {
  const fresh = () => server().client('app');

  it('a logout by another instance shows once the snapshot window has passed', async () => {
    const account = await signUp(server(), 'sl-snapshot');
    assert.equal((await fresh().get('/auth/session', bearer(account.accessToken))).status, 200);
    // Another instance: its own connection to the same database.
    const other = openDatabase(server().app.deps.config.databaseUrl);
    try {
      await other.deleteFrom('sessions').where('user_id', '=', account.userId).execute();
    } finally {
      await closeDatabase(other);
    }
    assert.equal((await fresh().get('/auth/session', bearer(account.accessToken))).status, 200, 'still the snapshot');
    server().clock.advance(5_001);
    assert.equal((await fresh().get('/auth/session', bearer(account.accessToken))).status, 410);
  });

  it('a logout on this instance shows at once', async () => {
    const account = await signUp(server(), 'sl-local');
    assert.equal((await fresh().get('/auth/session', bearer(account.accessToken))).status, 200);
    assert.equal((await fresh().delete('/auth/session', undefined, bearer(account.accessToken))).status, 401);
    assert.equal((await fresh().get('/auth/session', bearer(account.accessToken))).status, 410);
  });
});
