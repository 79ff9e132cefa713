import { it } from 'node:test';
import assert from 'node:assert/strict';
import { calculateJwkThumbprint, createLocalJWKSet, jwtVerify } from 'jose';
import { describeEachDatabase, TEST_SECRET } from '../support/server.js';
import { sidCodec } from '../../src/tokens/sid.js';
import { bearer, claimsOf, headerOf, jwtEnv, PASSWORD, signUp } from './support.js';

// The JWT strategy end to end (RS256, stateless validation, rotation on):
// what authentication returns, what the tokens hold, and how they are used.

describeEachDatabase('JWT strategy', jwtEnv(), ({ server }) => {
  it('returns session, access and refresh tokens on signup and login, with exactly the spec claims', async () => {
    const account = await signUp(server(), 'claims');
    const claims = claimsOf(account.accessToken);
    assert.deepEqual(Object.keys(claims).sort(), ['exp', 'iat', 'jti', 'sid', 'sub', 'token_use']);
    assert.equal(claims.sub, String(account.userId));
    assert.equal(claims.token_use, 'access');
    assert.equal(claims.exp! - claims.iat!, 300);
    assert.match(claims.jti!, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    // sid is the session key, encrypted under SHA-256 of the secret key.
    assert.equal(sidCodec([TEST_SECRET]).decrypt(claims.sid as string), account.sessionToken);
    assert.notEqual(claims.sid, account.sessionToken);
    const refresh = claimsOf(account.refreshToken);
    assert.equal(refresh.token_use, 'refresh');
    assert.equal(refresh.exp! - refresh.iat!, 86400);
    assert.notEqual(refresh.jti, claims.jti);

    const other = server().client('app');
    const login = await other.post('/auth/login', { email: account.email, password: PASSWORD });
    assert.equal(login.status, 200);
    assert.ok(login.body.meta.session_token);
    assert.ok(login.body.meta.access_token);
    assert.ok(login.body.meta.refresh_token);
    assert.equal(login.body.meta.expires_in, undefined);
  });

  it('publishes the RS public key as a JWK Set whose thumbprint is the kid', async () => {
    const account = await signUp(server(), 'jwks');
    const response = await fetch(`${server().baseUrl}/_service/app/v1/.well-known/jwks.json`);
    assert.equal(response.status, 200);
    const jwks = (await response.json()) as { keys: Array<{ kid: string; kty: string; n: string; e: string; alg: string }> };
    assert.equal(jwks.keys.length, 1);
    const [key] = jwks.keys;
    assert.equal(key!.alg, 'RS256');
    assert.equal(key!.kid, await calculateJwkThumbprint({ kty: key!.kty, n: key!.n, e: key!.e }));
    assert.equal(headerOf(account.accessToken).kid, key!.kid);
    assert.equal(headerOf(account.accessToken).alg, 'RS256');
    // What a resource server does: verify against the published set.
    const { payload } = await jwtVerify(account.accessToken, createLocalJWKSet(jwks as never), { algorithms: ['RS256'] });
    assert.equal(payload.sub, String(account.userId));
    // Browsers have no token endpoints.
    const browser = await fetch(`${server().baseUrl}/_service/browser/v1/.well-known/jwks.json`);
    assert.equal(browser.status, 404);
  });

  it('authenticates any endpoint with Authorization: Bearer, without a session token', async () => {
    const account = await signUp(server(), 'bearer');
    const app = server().client('app');
    const me = await app.get('/auth/session', bearer(account.accessToken));
    assert.equal(me.status, 200);
    assert.equal(me.body.data.user.id, account.userId);
    assert.equal(me.body.meta.is_authenticated, true);
    assert.equal(me.body.meta.access_token, undefined, 'no new tokens when nothing changed');
    const reauth = await app.post('/auth/reauthenticate', { password: PASSWORD }, bearer(account.accessToken));
    assert.equal(reauth.status, 200);
    assert.equal(reauth.body.meta.access_token, undefined);
    // The session token still works on its own.
    const bySessionToken = await account.client.get('/auth/session');
    assert.equal(bySessionToken.status, 200);
    // Without any credential: 401.
    assert.equal((await server().client('app').get('/auth/session')).status, 401);
  });

  it('refreshes with rotation: a new pair, and the old refresh token dies', async () => {
    const account = await signUp(server(), 'rotate');
    const app = server().client('app');
    const first = await app.post('/tokens/refresh', { refresh_token: account.refreshToken });
    assert.equal(first.status, 200);
    assert.deepEqual(Object.keys(first.body.data).sort(), ['access_token', 'refresh_token']);
    const { access_token, refresh_token } = first.body.data;
    assert.notEqual(refresh_token, account.refreshToken);
    assert.equal(claimsOf(access_token).sub, String(account.userId));
    assert.equal((await app.get('/auth/session', bearer(access_token))).status, 200);

    const second = await app.post('/tokens/refresh', { refresh_token });
    assert.equal(second.status, 200);
    const stale = await app.post('/tokens/refresh', { refresh_token: account.refreshToken });
    assert.equal(stale.status, 400);
    assert.equal(stale.body.errors[0].code, 'invalid_token');
    assert.equal(stale.body.errors[0].param, 'refresh_token');
  });

  it('refreshes through POST /auth/session {refresh_token} with the user and tokens in meta', async () => {
    const account = await signUp(server(), 'session-form');
    const app = server().client('app');
    const response = await app.post('/auth/session', { refresh_token: account.refreshToken });
    assert.equal(response.status, 200);
    assert.equal(response.body.data.user.id, account.userId);
    assert.equal(response.body.meta.is_authenticated, true);
    assert.ok(response.body.meta.access_token);
    assert.ok(response.body.meta.refresh_token);
    assert.notEqual(response.body.meta.refresh_token, account.refreshToken);
    assert.equal(response.body.meta.session_token, undefined);
    // The new refresh token is the live one; the presented one is spent.
    assert.equal((await app.post('/tokens/refresh', { refresh_token: response.body.meta.refresh_token })).status, 200);
  });

  it('answers 400 for a missing, malformed or access token given as the refresh token', async () => {
    const account = await signUp(server(), 'bad-refresh');
    const app = server().client('app');
    for (const body of [{}, { refresh_token: '' }]) {
      const response = await app.post('/tokens/refresh', body);
      assert.equal(response.status, 400);
      assert.equal(response.body.errors[0].code, 'required');
      assert.equal(response.body.errors[0].param, 'refresh_token');
    }
    const bodiless = await fetch(`${server().baseUrl}/_service/app/v1/tokens/refresh`, { method: 'POST' });
    assert.equal(bodiless.status, 400);
    assert.equal(((await bodiless.json()) as any).errors[0].code, 'required');
    for (const refresh_token of ['garbage', account.accessToken, `${account.refreshToken}x`]) {
      const response = await app.post('/tokens/refresh', { refresh_token });
      assert.equal(response.status, 400);
      assert.equal(response.body.errors[0].code, 'invalid_token');
    }
    const sessionForm = await app.post('/auth/session', { refresh_token: account.accessToken });
    assert.equal(sessionForm.status, 400);
    assert.equal(sessionForm.body.errors[0].code, 'invalid_token');
  });

  it('after logout: the access token gets 410 (stateless, as the reference) and the refresh token 400', async () => {
    const account = await signUp(server(), 'logout');
    const app = server().client('app');
    const logout = await app.delete('/auth/session', undefined, bearer(account.accessToken));
    assert.equal(logout.status, 401);
    const after = await app.get('/auth/session', bearer(account.accessToken));
    assert.equal(after.status, 410);
    assert.equal(after.body.meta.is_authenticated, null);
    assert.equal((await app.post('/tokens/refresh', { refresh_token: account.refreshToken })).status, 400);
    assert.equal((await account.client.get('/auth/session')).status, 410);
  });

  it('a password change gives the session a new key and new tokens; the old ones stop working', async () => {
    const account = await signUp(server(), 'password');
    const app = server().client('app');
    const change = await app.post('/account/password/change', { current_password: PASSWORD, new_password: 'another long phrase 42' }, bearer(account.accessToken));
    assert.equal(change.status, 200);
    const { session_token, access_token, refresh_token } = change.body.meta;
    assert.ok(session_token && access_token && refresh_token);
    // Fresh clients: the one above now sends the new X-Session-Token, which takes precedence.
    const fresh = () => server().client('app');
    assert.equal((await fresh().get('/auth/session', bearer(access_token))).status, 200);
    assert.equal((await fresh().get('/auth/session', bearer(account.accessToken))).status, 410);
    assert.equal((await fresh().post('/tokens/refresh', { refresh_token: account.refreshToken })).status, 400);
    assert.equal((await fresh().post('/tokens/refresh', { refresh_token })).status, 200);
  });

  it('the browser client never gets tokens', async () => {
    const browser = server().client('browser');
    await browser.get('/config');
    const signup = await browser.post('/auth/signup', { email: `browser-${Date.now()}@example.com`, password: PASSWORD });
    assert.equal(signup.status, 200);
    assert.equal(signup.body.meta.access_token, undefined);
    assert.equal(signup.body.meta.refresh_token, undefined);
    assert.equal((await browser.post('/tokens/refresh', { refresh_token: 'x' })).status, 404);
  });

  it('an access token expires with the server clock; a refresh then yields a working one', async () => {
    const account = await signUp(server(), 'expiry');
    const app = server().client('app');
    server().clock.advance(301_000);
    const expired = await app.get('/auth/session', bearer(account.accessToken));
    assert.equal(expired.status, 401);
    assert.equal(expired.body.meta.is_authenticated, false);
    const refreshed = await app.post('/tokens/refresh', { refresh_token: account.refreshToken });
    assert.equal(refreshed.status, 200);
    assert.equal((await app.get('/auth/session', bearer(refreshed.body.data.access_token))).status, 200);
    // The refresh token's own lifetime ends too.
    server().clock.advance(86_401_000);
    const late = await app.post('/tokens/refresh', { refresh_token: refreshed.body.data.refresh_token });
    assert.equal(late.status, 400);
  });
});

describeEachDatabase('JWT strategy with mandatory email verification', jwtEnv({ ACCOUNT_EMAIL_VERIFICATION: 'mandatory' }), ({ server }) => {
  it('withholds tokens while verification is pending and issues them when the email is verified', async () => {
    const app = server().client('app');
    const email = `verify-${Date.now()}@example.com`;
    const signup = await app.post('/auth/signup', { email, password: PASSWORD });
    assert.equal(signup.status, 401);
    assert.ok(signup.body.meta.session_token);
    assert.equal(signup.body.meta.access_token, undefined);
    const mail = await server().mail.waitForMail({ to: email });
    const link = /https?:\/\/\S+\/verify-email\/(\S+)/.exec(mail.text);
    assert.ok(link, 'the mail carries a verification link');
    const verify = await app.post('/auth/email/verify', { key: decodeURIComponent(link[1]!) });
    assert.equal(verify.status, 200);
    assert.ok(verify.body.meta.session_token);
    assert.ok(verify.body.meta.access_token);
    assert.ok(verify.body.meta.refresh_token);
    assert.equal((await server().client('app').get('/auth/session', bearer(verify.body.meta.access_token))).status, 200);
  });
});

describeEachDatabase('JWT strategy with login by code', jwtEnv({ ACCOUNT_LOGIN_BY_CODE_ENABLED: 'true' }), ({ server }) => {
  it('withholds tokens while the code is pending and issues them on confirmation', async () => {
    const account = await signUp(server(), 'by-code');
    const app = server().client('app');
    const request = await app.post('/auth/code/request', { email: account.email });
    assert.equal(request.status, 401);
    assert.ok(request.body.meta.session_token);
    assert.equal(request.body.meta.access_token, undefined);
    const mail = await server().mail.waitForMail({ to: account.email });
    const code = /^([A-Z0-9]{6})$/m.exec(mail.text);
    assert.ok(code, 'the mail carries a code');
    const confirm = await app.post('/auth/code/confirm', { code: code[1] });
    assert.equal(confirm.status, 200);
    assert.ok(confirm.body.meta.access_token);
    assert.ok(confirm.body.meta.refresh_token);
    assert.equal(claimsOf(confirm.body.meta.access_token).sub, String(account.userId));
  });
});
