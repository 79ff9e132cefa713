import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as oidc from 'openid-client';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { loadConfig } from '../../src/config/config.js';
import { describeEachDatabase } from '../support/server.js';
import { SECRET, rejects } from '../config/support.js';
import { IDP_ENV, PRIVATE_KEY, REDIRECT_URI, authorize, codeFlow, loggedInBrowser, registerClient, relyingParty } from './support.js';

// Resource indicators (RFC 8707) over IDP_OIDC_RESOURCE_SERVERS: a token
// asked for a resource has it as audience and only that resource's scopes
// among the client's; a request without resource is answered as before.

const ORDERS = 'https://orders.example.com';
const FILES = 'https://files.example.com';
const RESOURCE_SERVERS = JSON.stringify([
  { resource: ORDERS, scopes: ['orders.read', 'orders.write'], access_token_format: 'jwt', access_token_ttl: 600 },
  { resource: FILES, scopes: ['files.read'] },
]);

describeEachDatabase('OpenID provider: resource indicators', { ...IDP_ENV, IDP_OIDC_RESOURCE_SERVERS: RESOURCE_SERVERS }, ({ server }) => {
  it('a code flow for a resource gets a JWT for that audience with its scopes among the client\'s, which userinfo refuses', async () => {
    const client = await registerClient(server(), { scopes: ['openid', 'email', 'orders.read'] });
    const rp = await relyingParty(server(), client);
    const { api } = await loggedInBrowser(server());
    // orders.write is the resource's but not the client's: left out.
    const { tokens } = await codeFlow(server(), rp, api, { scope: 'openid email orders.read orders.write', resource: ORDERS });
    assert.ok(tokens.id_token, 'still an ID token');
    const jwks = createRemoteJWKSet(new URL(`${server().baseUrl}/.well-known/jwks.json`));
    const { payload, protectedHeader } = await jwtVerify(tokens.access_token, jwks, { issuer: server().baseUrl, audience: ORDERS });
    assert.equal(protectedHeader.typ, 'at+jwt');
    assert.equal(payload.sub, tokens.claims()!.sub);
    assert.equal(payload.client_id, client.id);
    assert.equal(payload.scope, 'orders.read');
    assert.equal(payload.exp! - payload.iat!, 600);
    assert.equal(tokens.expires_in, 600);

    const userinfo = await fetch(`${server().baseUrl}/identity/o/api/userinfo`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    assert.equal(userinfo.status, 401);
    assert.match(userinfo.headers.get('www-authenticate') ?? '', /invalid_token/);
    // Not stored: introspection and revocation do not take it (docs/idp.md).
    await assert.rejects(oidc.tokenIntrospection(rp, tokens.access_token), (e: any) => e.error === 'unsupported_token_type');
  });

  it('client credentials for an opaque resource: the resource\'s client introspects it with its audience', async () => {
    const service = await registerClient(server(), { grantTypes: ['client_credentials'], redirectUris: [], scopes: ['files.read', 'reports'] });
    const tokens = await oidc.clientCredentialsGrant(await relyingParty(server(), service), { scope: 'files.read reports', resource: FILES });
    assert.equal(tokens.scope, 'files.read');
    assert.equal(tokens.expires_in, 3600);
    // The API introspects tokens issued to other clients: a resource server.
    const api = await registerClient(server(), { name: 'Files API', grantTypes: ['client_credentials'], redirectUris: [], scopes: ['openid'], resourceServer: true });
    const info = await oidc.tokenIntrospection(await relyingParty(server(), api), tokens.access_token);
    assert.equal(info.active, true);
    assert.equal(info.aud, FILES);
    assert.equal(info.scope, 'files.read');
    assert.equal(info.client_id, service.id);
    // Stored, so revocable.
    await oidc.tokenRevocation(await relyingParty(server(), service), tokens.access_token);
    assert.equal((await oidc.tokenIntrospection(await relyingParty(server(), api), tokens.access_token)).active, false);
  });

  it('a client that skips consent is granted the resource\'s scopes it asks for', async () => {
    const client = await registerClient(server(), { scopes: ['openid', 'files.read'], skipConsent: true });
    const rp = await relyingParty(server(), client);
    const { api } = await loggedInBrowser(server());
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(rp, { redirect_uri: REDIRECT_URI, scope: 'openid files.read', resource: FILES, state: 'st', code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' });
    const landed = await authorize(server(), api, url, 'none');
    const tokens = await oidc.authorizationCodeGrant(rp, landed, { pkceCodeVerifier: verifier, expectedState: 'st' });
    assert.equal(tokens.scope, 'files.read');
    assert.equal((await oidc.tokenIntrospection(rp, tokens.access_token)).aud, FILES);
  });

  it('an unknown resource is invalid_target, at the token and the authorization endpoint', async () => {
    const service = await registerClient(server(), { grantTypes: ['client_credentials'], redirectUris: [], scopes: ['files.read'] });
    await assert.rejects(oidc.clientCredentialsGrant(await relyingParty(server(), service), { scope: 'files.read', resource: 'https://unknown.example.com' }), (e: any) => e.error === 'invalid_target');
    await assert.rejects(oidc.clientCredentialsGrant(await relyingParty(server(), service), { resource: 'not a uri' }), (e: any) => e.error === 'invalid_target');

    const client = await registerClient(server());
    const rp = await relyingParty(server(), client);
    const { api } = await loggedInBrowser(server());
    const url = oidc.buildAuthorizationUrl(rp, { redirect_uri: REDIRECT_URI, scope: 'openid', state: 'st', resource: 'https://unknown.example.com' });
    const landed = await authorize(server(), api, url, 'none');
    assert.equal(landed.origin + landed.pathname, REDIRECT_URI);
    assert.equal(landed.searchParams.get('error'), 'invalid_target');
  });

  it('without a resource, tokens are as before: no audience, userinfo works', async () => {
    const client = await registerClient(server(), { scopes: ['openid', 'email', 'orders.read'] });
    const rp = await relyingParty(server(), client);
    const { api, email } = await loggedInBrowser(server());
    const { tokens } = await codeFlow(server(), rp, api, { scope: 'openid email orders.read' });
    assert.equal(tokens.scope, 'openid email orders.read');
    assert.equal((await oidc.fetchUserInfo(rp, tokens.access_token, tokens.claims()!.sub)).email, email);
    const info = await oidc.tokenIntrospection(rp, tokens.access_token);
    assert.equal(info.active, true);
    assert.equal(info.aud, undefined);
  });
});

describeEachDatabase('OpenID provider: resource indicators with JWT access tokens', { ...IDP_ENV, IDP_OIDC_ACCESS_TOKEN_FORMAT: 'jwt', IDP_OIDC_RESOURCE_SERVERS: RESOURCE_SERVERS }, ({ server }) => {
  it('a token for a resource takes the resource\'s format and audience; one without keeps IDP_OIDC_ACCESS_TOKEN_FORMAT', async () => {
    const service = await registerClient(server(), { grantTypes: ['client_credentials'], redirectUris: [], scopes: ['files.read', 'orders.read'] });
    const rp = await relyingParty(server(), service);
    const jwks = createRemoteJWKSet(new URL(`${server().baseUrl}/.well-known/jwks.json`));

    const opaque = await oidc.clientCredentialsGrant(rp, { scope: 'files.read', resource: FILES });
    assert.doesNotMatch(opaque.access_token, /^[\w-]+\.[\w-]+\.[\w-]+$/);
    const info = await oidc.tokenIntrospection(rp, opaque.access_token);
    assert.equal(info.active, true);
    assert.equal(info.aud, FILES);

    const forOrders = await oidc.clientCredentialsGrant(rp, { scope: 'orders.read', resource: ORDERS });
    assert.equal((await jwtVerify(forOrders.access_token, jwks, { audience: ORDERS })).payload.scope, 'orders.read');
    assert.equal((await oidc.tokenIntrospection(rp, forOrders.access_token)).active, false, 'not stored');

    const plain = await oidc.clientCredentialsGrant(rp, { scope: 'files.read' });
    const { payload } = await jwtVerify(plain.access_token, jwks);
    assert.equal(payload.aud, undefined);
    assert.equal(payload.token_use, 'access');
  });
});

describe('IDP_OIDC_RESOURCE_SERVERS', () => {
  const ON = { IDP_OIDC_ENABLED: 'true', IDP_OIDC_PRIVATE_KEY: PRIVATE_KEY };

  it('reads resource servers, with defaults', () => {
    const { idp } = loadConfig({ SECRET_KEY: SECRET, ...ON, IDP_OIDC_RESOURCE_SERVERS: RESOURCE_SERVERS });
    assert.deepEqual(idp.resourceServers, [
      { resource: ORDERS, scopes: ['orders.read', 'orders.write'], accessTokenFormat: 'jwt', accessTokenTtl: 600 },
      { resource: FILES, scopes: ['files.read'], accessTokenFormat: 'opaque', accessTokenTtl: null },
    ]);
    assert.deepEqual(loadConfig({ SECRET_KEY: SECRET, ...ON }).idp.resourceServers, []);
  });

  it('refuses what it cannot use, naming the setting', () => {
    for (const value of [
      '{"resource": "https://a.example"}',
      'not json',
      '[{"resource": "relative/path"}]',
      '[{"resource": "https://a.example/#x"}]',
      '[{"resource": "https://a.example", "scopes": "read"}]',
      '[{"resource": "https://a.example", "access_token_format": "paseto"}]',
      '[{"resource": "https://a.example", "access_token_ttl": 0}]',
      '[{"resource": "https://a.example", "audience": "x"}]',
      '[{"resource": "https://a.example"}, {"resource": "https://a.example"}]',
    ]) rejects({ ...ON, IDP_OIDC_RESOURCE_SERVERS: value }, 'IDP_OIDC_RESOURCE_SERVERS');
  });
});
