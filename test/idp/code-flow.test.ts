import { it } from 'node:test';
import assert from 'node:assert/strict';
import * as oidc from 'openid-client';
import { describeEachDatabase } from '../support/server.js';
import { IDP_ENV, REDIRECT_URI, authorize, codeFlow, loggedInBrowser, registerClient, relyingParty } from './support.js';

// The authorization code flow with PKCE against openid-client: discovery
// under the reference's paths, the ID token's claims, userinfo, and the
// bad inputs a relying party or an attacker may send.

describeEachDatabase('OpenID provider: authorization code', IDP_ENV, ({ server }) => {
  it('publishes the discovery document and JWKS under the reference paths', async () => {
    const response = await fetch(`${server().baseUrl}/.well-known/openid-configuration`);
    assert.equal(response.status, 200);
    const doc = await response.json();
    const base = server().baseUrl;
    assert.equal(doc.issuer, base);
    assert.equal(doc.authorization_endpoint, `${base}/identity/o/authorize`);
    assert.equal(doc.token_endpoint, `${base}/identity/o/api/token`);
    assert.equal(doc.userinfo_endpoint, `${base}/identity/o/api/userinfo`);
    assert.equal(doc.revocation_endpoint, `${base}/identity/o/api/revoke`);
    assert.equal(doc.device_authorization_endpoint, `${base}/identity/o/api/device/code`);
    assert.equal(doc.end_session_endpoint, `${base}/identity/o/logout`);
    assert.equal(doc.jwks_uri, `${base}/.well-known/jwks.json`);
    assert.deepEqual(doc.code_challenge_methods_supported, ['S256']);
    // The claims users here have: the names with profile, as the reference's (test/idp/profile-claims.test.ts adds custom ones).
    assert.deepEqual([...doc.claims_supported].sort(), ['amr', 'auth_time', 'email', 'email_verified', 'family_name', 'given_name', 'iss', 'name', 'phone_number', 'phone_number_verified', 'preferred_username', 'sid', 'sub']);
    const jwks = await (await fetch(doc.jwks_uri)).json();
    assert.equal(jwks.keys.length, 1);
    assert.equal(jwks.keys[0].d, undefined, 'no private part');
  });

  it('logs a user in to a confidential client: code, tokens, ID token claims, userinfo', async () => {
    const client = await registerClient(server());
    const rp = await relyingParty(server(), client);
    const { api, email } = await loggedInBrowser(server());
    const { tokens, nonce } = await codeFlow(server(), rp, api);
    const claims = tokens.claims()!;
    assert.equal(claims.email, email);
    assert.equal(claims.email_verified, false);
    assert.equal(claims.nonce, nonce);
    assert.equal(claims.aud, client.id);
    assert.ok(typeof claims.auth_time === 'number');
    assert.deepEqual(claims.amr, ['pwd']);
    assert.ok(tokens.refresh_token, 'the client has the refresh_token grant');
    const info = await oidc.fetchUserInfo(rp, tokens.access_token, claims.sub);
    assert.equal(info.email, email);

    // A second authorization for the same scopes asks no consent again.
    const again = await codeFlow(server(), rp, api);
    assert.equal(again.tokens.claims()!.sub, claims.sub);
  });

  it('a public client must use PKCE', async () => {
    const client = await registerClient(server(), { type: 'public', grantTypes: ['authorization_code'] });
    const rp = await relyingParty(server(), client);
    const { api } = await loggedInBrowser(server());
    const { tokens } = await codeFlow(server(), rp, api);
    assert.ok(tokens.id_token);
    const url = oidc.buildAuthorizationUrl(rp, { redirect_uri: REDIRECT_URI, scope: 'openid', state: 's' });
    const landed = await authorize(server(), api, url, 'none');
    assert.equal(landed.origin + landed.pathname, REDIRECT_URI);
    assert.equal(landed.searchParams.get('error'), 'invalid_request');
  });

  it('refuses bad inputs: redirect URI, code reuse, PKCE mismatch, client secret, expired code', async () => {
    const client = await registerClient(server());
    const rp = await relyingParty(server(), client);
    const { api } = await loggedInBrowser(server());

    // An unregistered redirect URI: an error page here, never a redirect there.
    const bad = oidc.buildAuthorizationUrl(rp, { redirect_uri: 'http://evil.test/callback', scope: 'openid' });
    const response = await fetch(bad, { redirect: 'manual', headers: { cookie: api.cookieHeader } });
    assert.equal(response.status, 400);
    assert.equal(response.headers.get('location'), null);
    assert.match(response.headers.get('content-security-policy') ?? '', /default-src 'none'/);

    // A code is used once.
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(rp, { redirect_uri: REDIRECT_URI, scope: 'openid', code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', state: 'st' });
    const callback = await authorize(server(), api, url);
    await oidc.authorizationCodeGrant(rp, callback, { pkceCodeVerifier: verifier, expectedState: 'st' });
    await assert.rejects(oidc.authorizationCodeGrant(rp, callback, { pkceCodeVerifier: verifier, expectedState: 'st' }), (e: any) => e.error === 'invalid_grant');

    // The wrong verifier.
    const other = await authorize(server(), api, url);
    await assert.rejects(oidc.authorizationCodeGrant(rp, other, { pkceCodeVerifier: oidc.randomPKCECodeVerifier(), expectedState: 'st' }), (e: any) => e.error === 'invalid_grant');

    // The wrong client secret.
    const wrong = await relyingParty(server(), { id: client.id, secret: 'not-the-secret' });
    const third = await authorize(server(), api, url);
    await assert.rejects(oidc.authorizationCodeGrant(wrong, third, { pkceCodeVerifier: verifier, expectedState: 'st' }), (e: any) => e.status === 401 && e.cause?.[0]?.parameters?.error === 'invalid_client');

    // A code past IDP_OIDC_AUTHORIZATION_CODE_EXPIRES_IN (60 s): the server's clock moves.
    const fourth = await authorize(server(), api, url);
    server().clock.advance(61_000);
    try {
      await assert.rejects(oidc.authorizationCodeGrant(rp, fourth, { pkceCodeVerifier: verifier, expectedState: 'st' }), (e: any) => e.error === 'invalid_grant');
    } finally {
      server().clock.advance(-61_000);
    }
  });

  it('a request without scope gets the client\'s default scopes', async () => {
    const client = await registerClient(server(), { scopes: ['openid', 'email', 'profile'], defaultScopes: ['openid', 'email'], skipConsent: true });
    const rp = await relyingParty(server(), client);
    const { api, email } = await loggedInBrowser(server());
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(rp, { redirect_uri: REDIRECT_URI, code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', state: 'st' });
    const landed = await authorize(server(), api, url, 'none');
    const tokens = await oidc.authorizationCodeGrant(rp, landed, { pkceCodeVerifier: verifier, expectedState: 'st' });
    assert.equal(tokens.scope, 'openid email');
    assert.equal(tokens.claims()!.email, email);
  });

  it('a client registered for it gets an ID token from the authorization endpoint (implicit)', async () => {
    const client = await registerClient(server(), { responseTypes: ['code', 'id_token'], redirectUris: ['https://rp.test/callback'], skipConsent: true });
    const rp = await relyingParty(server(), client);
    oidc.useIdTokenResponseType(rp);
    const { api, email } = await loggedInBrowser(server());
    const url = oidc.buildAuthorizationUrl(rp, { redirect_uri: 'https://rp.test/callback', scope: 'openid email', nonce: 'n-1', state: 'st' });
    const landed = await authorize(server(), api, url, 'none');
    const claims = await oidc.implicitAuthentication(rp, landed, 'n-1', { expectedState: 'st' });
    assert.equal(claims.email, email);
  });

  it('client_secret_post works as well as basic', async () => {
    const client = await registerClient(server());
    const rp = await relyingParty(server(), client, 'post');
    const { api } = await loggedInBrowser(server());
    const { tokens } = await codeFlow(server(), rp, api);
    assert.ok(tokens.access_token);
  });
});

describeEachDatabase('OpenID provider: an external userinfo endpoint', { ...IDP_ENV, IDP_OIDC_USERINFO_ENDPOINT: 'https://api.example.com/me' }, ({ server }) => {
  it('is announced, and the built-in one is off', async () => {
    const doc = await (await fetch(`${server().baseUrl}/.well-known/openid-configuration`)).json();
    assert.equal(doc.userinfo_endpoint, 'https://api.example.com/me');
    assert.equal((await fetch(`${server().baseUrl}/identity/o/api/userinfo`)).status, 404);
  });
});
