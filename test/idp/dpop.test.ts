import { it } from 'node:test';
import assert from 'node:assert/strict';
import * as oidc from 'openid-client';
import { calculateJwkThumbprint, decodeJwt, exportJWK } from 'jose';
import { describeEachDatabase, type TestServer } from '../support/server.js';
import type { ApiClient } from '../support/client.js';
import { IDP_ENV, REDIRECT_URI, authorize, loggedInBrowser, registerClient, relyingParty } from './support.js';

// DPoP (RFC 9449) with openid-client's own DPoP support: tokens bound to
// the client's key (token_type DPoP, cnf.jkt), refused at userinfo without
// a proof of that key, a proof used once. The proofs' iat is checked by
// oidc-provider against the system clock, as openid-client makes them: the
// test clock (server().clock) is not moved in this suite, so the two agree.

async function dpopKey(rp: oidc.Configuration) {
  const keyPair = await oidc.randomDPoPKeyPair();
  const jkt = await calculateJwkThumbprint(await exportJWK(keyPair.publicKey));
  return { handle: oidc.getDPoPHandle(rp, keyPair), jkt };
}

async function dpopCodeFlow(server: () => TestServer, rp: oidc.Configuration, jar: ApiClient, DPoP: oidc.DPoPHandle) {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(rp, { redirect_uri: REDIRECT_URI, scope: 'openid email', code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', state });
  const callback = await authorize(server(), jar, url);
  return oidc.authorizationCodeGrant(rp, callback, { pkceCodeVerifier: verifier, expectedState: state }, undefined, { DPoP });
}

const refused = (error: string) => (e: any) => e.error === error || (e.response?.status === 401 && JSON.stringify(e.cause ?? '').includes(error));

async function userinfo(server: TestServer, headers: Record<string, string>) {
  return fetch(new URL('/identity/o/api/userinfo', server.baseUrl), { headers });
}

describeEachDatabase('OpenID provider: DPoP', IDP_ENV, ({ server }) => {
  it('binds the access token to the key: userinfo refuses it without a proof, or with another key, and takes it with one', async () => {
    const client = await registerClient(server());
    const rp = await relyingParty(server(), client);
    const { api } = await loggedInBrowser(server());
    const { handle, jkt } = await dpopKey(rp);
    const tokens = await dpopCodeFlow(server, rp, api, handle);
    assert.equal(tokens.token_type.toLowerCase(), 'dpop');
    const sub = tokens.claims()!.sub;

    // As a bearer token: invalid_token; under the DPoP scheme with no proof: invalid_request (RFC 9449 section 7.1).
    const asBearer = await userinfo(server(), { authorization: `Bearer ${tokens.access_token}` });
    assert.equal(asBearer.status, 401);
    assert.match(asBearer.headers.get('www-authenticate') ?? '', /error="invalid_token"/);
    const noProof = await userinfo(server(), { authorization: `DPoP ${tokens.access_token}` });
    assert.equal(noProof.status, 400);
    assert.match(noProof.headers.get('www-authenticate') ?? '', /error="invalid_request"/);
    const other = await dpopKey(rp);
    await assert.rejects(oidc.fetchUserInfo(rp, tokens.access_token, sub, { DPoP: other.handle }), (e: any) => e.response?.status === 401);

    const claims = await oidc.fetchUserInfo(rp, tokens.access_token, sub, { DPoP: handle });
    assert.equal(claims.sub, sub);

    // A resource server sees the binding at introspection.
    const info = await oidc.tokenIntrospection(rp, tokens.access_token);
    assert.equal(info.active, true);
    assert.equal(info.token_type, 'DPoP');
    assert.deepEqual(info.cnf, { jkt });

    // A confidential client authenticates at the token endpoint: its refresh token is not bound, and without a proof the new access token is a bearer one.
    const bearer = await oidc.refreshTokenGrant(rp, tokens.refresh_token!);
    assert.equal(bearer.token_type.toLowerCase(), 'bearer');
  });

  it('binds a public client\'s refresh token to its key', async () => {
    const client = await registerClient(server(), { type: 'public' });
    const rp = await relyingParty(server(), client);
    const { api } = await loggedInBrowser(server());
    const { handle } = await dpopKey(rp);
    const tokens = await dpopCodeFlow(server, rp, api, handle);
    assert.ok(tokens.refresh_token);

    await assert.rejects(oidc.refreshTokenGrant(rp, tokens.refresh_token!), refused('invalid_grant'));
    await assert.rejects(oidc.refreshTokenGrant(rp, tokens.refresh_token!, undefined, { DPoP: (await dpopKey(rp)).handle }), refused('invalid_grant'));
    const refreshed = await oidc.refreshTokenGrant(rp, tokens.refresh_token!, undefined, { DPoP: handle });
    assert.equal(refreshed.token_type.toLowerCase(), 'dpop');
    assert.equal((await oidc.fetchUserInfo(rp, refreshed.access_token, tokens.claims()!.sub, { DPoP: handle })).sub, tokens.claims()!.sub);
  });

  it('binds the authorization code to the key named in the request (dpop_jkt)', async () => {
    const client = await registerClient(server(), { skipConsent: true });
    const rp = await relyingParty(server(), client);
    const { api } = await loggedInBrowser(server());
    const named = await dpopKey(rp);
    const exchange = async (DPoP: oidc.DPoPHandle) => {
      const verifier = oidc.randomPKCECodeVerifier();
      const url = oidc.buildAuthorizationUrl(rp, { redirect_uri: REDIRECT_URI, scope: 'openid', code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', state: 'st', dpop_jkt: named.jkt });
      const callback = await authorize(server(), api, url, 'none');
      return oidc.authorizationCodeGrant(rp, callback, { pkceCodeVerifier: verifier, expectedState: 'st' }, undefined, { DPoP });
    };
    await assert.rejects(exchange((await dpopKey(rp)).handle), refused('invalid_grant'));
    assert.equal((await exchange(named.handle)).token_type.toLowerCase(), 'dpop');
  });

  it('refuses a proof used a second time', async () => {
    const client = await registerClient(server(), { grantTypes: ['client_credentials'], redirectUris: [], scopes: ['openid', 'read'] });
    const rp = await relyingParty(server(), client);
    const { handle } = await dpopKey(rp);
    const tokens = await oidc.clientCredentialsGrant(rp, { scope: 'read' }, { DPoP: handle });
    assert.equal(tokens.token_type.toLowerCase(), 'dpop');

    // The same proof (its jti) again at the token endpoint.
    let sent: { url: string; headers: Headers; body: string } | undefined;
    rp[oidc.customFetch] = (url, options) => {
      sent = { url, headers: new Headers(options.headers), body: String(options.body) };
      return fetch(url, options as RequestInit);
    };
    await oidc.clientCredentialsGrant(rp, { scope: 'read' }, { DPoP: handle });
    assert.ok(sent?.headers.get('dpop'));
    const replay = await fetch(sent!.url, { method: 'POST', headers: sent!.headers, body: sent!.body });
    assert.equal(replay.status, 400);
    // oidc-provider's answer to a replayed proof at the token endpoint.
    assert.equal(((await replay.json()) as { error: string }).error, 'invalid_grant');
  });
});

describeEachDatabase('OpenID provider: DPoP with JWT access tokens', { ...IDP_ENV, IDP_OIDC_ACCESS_TOKEN_FORMAT: 'jwt' }, ({ server }) => {
  it('puts the key\'s thumbprint in the token (cnf.jkt) for resource servers that verify it themselves', async () => {
    const client = await registerClient(server(), { grantTypes: ['client_credentials'], redirectUris: [], scopes: ['read'] });
    const rp = await relyingParty(server(), client);
    const { handle, jkt } = await dpopKey(rp);
    const tokens = await oidc.clientCredentialsGrant(rp, { scope: 'read' }, { DPoP: handle });
    assert.deepEqual(decodeJwt(tokens.access_token).cnf, { jkt });
    const bearer = await oidc.clientCredentialsGrant(rp, { scope: 'read' });
    assert.equal(decodeJwt(bearer.access_token).cnf, undefined);
  });
});
