import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as oidc from 'openid-client';
import { decodeJwt, exportJWK, generateKeyPair, type CryptoKey } from 'jose';
import { describeEachDatabase } from '../support/server.js';
import { startStandin, type Standin } from '../support/standin.js';
import { migratedDatabaseUrl } from '../support/databases.js';
import { AdminClient, adminUrl, assertAdminError, newKey } from '../admin/support.js';
import { cliError, cliJson } from '../cli/support.js';
import { hashSecret } from '../../src/security/secrets.js';
import { eventsOf } from '../audit/support.js';
import { IDP_ENV, codeFlow, loggedInBrowser, registerClient } from './support.js';

// private_key_jwt (RFC 7523): a confidential client with no secret that
// registers its public keys (inline, or at a jwks_uri) and signs a
// one-time assertion for each request; openid-client is the client.

async function keyPair(alg: 'ES256' | 'RS256' | 'Ed25519') {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), kid: `${alg}-${Math.random().toString(36).slice(2)}`, alg };
  return { privateKey, jwk, jwks: { keys: [jwk] } };
}

const signingWith = (privateKey: CryptoKey, kid: string) => oidc.PrivateKeyJwt({ key: privateKey, kid });
const refusedClient = (e: any) => e.error === 'invalid_client' || (e.response?.status === 401 && JSON.stringify(e.cause ?? '').includes('invalid_client'));

describeEachDatabase('OpenID provider: private_key_jwt', { ...IDP_ENV, ADMIN_PORT: '0' }, ({ server }) => {
  let keys: Standin;
  before(async () => {
    keys = await startStandin();
  });
  after(() => keys?.close());

  async function relyingParty(id: string, privateKey: CryptoKey, kid: string, fetch?: oidc.CustomFetch) {
    const rp = await oidc.discovery(new URL(server().baseUrl), id, undefined, signingWith(privateKey, kid), { execute: [oidc.allowInsecureRequests] });
    if (fetch) rp[oidc.customFetch] = fetch;
    return rp;
  }

  it('client credentials with an assertion signed by a registered key; no secret, another key refused', async () => {
    const { privateKey, jwk, jwks } = await keyPair('ES256');
    const client = await registerClient(server(), { grantTypes: ['client_credentials'], redirectUris: [], scopes: ['read'], tokenEndpointAuthMethod: 'private_key_jwt', jwks });
    assert.equal(client.secret, null, 'a private_key_jwt client has no secret');
    const rp = await relyingParty(client.id, privateKey, jwk.kid);
    const tokens = await oidc.clientCredentialsGrant(rp, { scope: 'read' });
    assert.equal(tokens.scope, 'read');
    // Introspection and revocation authenticate the client the same way.
    assert.equal((await oidc.tokenIntrospection(rp, tokens.access_token)).active, true);
    await oidc.tokenRevocation(rp, tokens.access_token);
    assert.equal((await oidc.tokenIntrospection(rp, tokens.access_token)).active, false);

    const other = await keyPair('ES256');
    await assert.rejects(oidc.clientCredentialsGrant(await relyingParty(client.id, other.privateKey, jwk.kid), { scope: 'read' }), refusedClient);
    await assert.rejects(oidc.clientCredentialsGrant(await relyingParty(client.id, other.privateKey, other.jwk.kid), { scope: 'read' }), refusedClient);
    // Nor does a secret get it in: it has none, and its method is the assertion.
    const withSecret = await oidc.discovery(new URL(server().baseUrl), client.id, undefined, oidc.ClientSecretBasic('guess'), { execute: [oidc.allowInsecureRequests] });
    await assert.rejects(oidc.clientCredentialsGrant(withSecret, { scope: 'read' }), refusedClient);
  });

  it('refuses an assertion used a second time (its jti)', async () => {
    const { privateKey, jwk, jwks } = await keyPair('Ed25519');
    const client = await registerClient(server(), { grantTypes: ['client_credentials'], redirectUris: [], scopes: ['read'], tokenEndpointAuthMethod: 'private_key_jwt', jwks });
    let sent: { url: string; body: string } | undefined;
    const recording: oidc.CustomFetch = (url, options) => {
      sent = { url, body: String(options.body) };
      return fetch(url, options as RequestInit);
    };
    const rp = await relyingParty(client.id, privateKey, jwk.kid, recording);
    await oidc.clientCredentialsGrant(rp, { scope: 'read' });
    assert.ok(sent && new URLSearchParams(sent.body).has('client_assertion'));

    const replay = await fetch(sent.url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: sent.body });
    assert.equal(replay.status, 401);
    const body = (await replay.json()) as { error: string; error_description: string };
    assert.equal(body.error, 'invalid_client');
    // Refused as a replay: the provider remembers the assertion's jti until it expires.
    const { jti } = decodeJwt(new URLSearchParams(sent.body).get('client_assertion')!);
    const id = hashSecret(createHash('sha256').update(`${client.id}${jti}`).digest('base64url'));
    const seen = await server().app.deps.db.selectFrom('idp_payloads').select('id').where('model', '=', 'ReplayDetection').where('id', '=', id).execute();
    assert.equal(seen.length, 1);
    // A fresh assertion still works.
    await oidc.clientCredentialsGrant(rp, { scope: 'read' });
  });

  it('authorization code flow and refresh with keys fetched from the client\'s jwks_uri', async () => {
    const { privateKey, jwk, jwks } = await keyPair('RS256');
    keys.routes.set('GET /jwks', () => ({ json: jwks }));
    const client = await registerClient(server(), { tokenEndpointAuthMethod: 'private_key_jwt', jwksUri: `${keys.url}/jwks` });
    const rp = await relyingParty(client.id, privateKey, jwk.kid);
    const { api } = await loggedInBrowser(server());
    const { tokens } = await codeFlow(server(), rp, api);
    assert.ok(tokens.id_token);
    assert.ok(keys.seen.some((request) => request.url.pathname === '/jwks'), 'the provider fetched the keys');
    const refreshed = await oidc.refreshTokenGrant(rp, tokens.refresh_token!);
    assert.ok(refreshed.access_token);

    const other = await keyPair('RS256');
    await assert.rejects(oidc.refreshTokenGrant(await relyingParty(client.id, other.privateKey, jwk.kid), refreshed.refresh_token!), refusedClient);
  });

  describe('registration (admin API)', () => {
    let writer: AdminClient;
    before(async () => {
      writer = new AdminClient(await adminUrl(server()), (await newKey(server(), 'write')).secret);
    });

    it('registers a private_key_jwt client without a secret; it has none to rotate', async () => {
      const { jwks } = await keyPair('ES256');
      const created = await writer.post('/idp/clients', { name: 'Signer', grant_types: ['client_credentials'], token_endpoint_auth_method: 'private_key_jwt', jwks });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.equal(created.body.meta.client_secret, null);
      assert.equal(created.body.data.token_endpoint_auth_method, 'private_key_jwt');
      assert.deepEqual(created.body.data.jwks, jwks);
      assert.equal(created.body.data.jwks_uri, null);
      assertAdminError(await writer.post(`/idp/clients/${created.body.data.id}/rotate-secret`), 409, 'private_key_jwt_client', 'client_id');

      const secretClient = await writer.post('/idp/clients', { name: 'Secret', grant_types: ['client_credentials'] });
      assert.equal(secretClient.body.data.token_endpoint_auth_method, 'client_secret_basic');
      assert.equal(typeof secretClient.body.meta.client_secret, 'string');
    });

    it('replaces a client\'s keys: the old one stops working at once', async () => {
      const first = await keyPair('ES256');
      const created = await writer.post('/idp/clients', { name: 'Signer', grant_types: ['client_credentials'], scopes: ['read'], token_endpoint_auth_method: 'private_key_jwt', jwks: first.jwks });
      const { id } = created.body.data;
      assert.ok((await oidc.clientCredentialsGrant(await relyingParty(id, first.privateKey, first.jwk.kid), { scope: 'read' })).access_token);

      const next = await keyPair('ES256');
      const replaced = await writer.put(`/idp/clients/${id}/keys`, { jwks: next.jwks });
      assert.equal(replaced.status, 200, JSON.stringify(replaced.body));
      assert.deepEqual(replaced.body.data.jwks, next.jwks);
      await assert.rejects(oidc.clientCredentialsGrant(await relyingParty(id, first.privateKey, first.jwk.kid), { scope: 'read' }), refusedClient);
      assert.ok((await oidc.clientCredentialsGrant(await relyingParty(id, next.privateKey, next.jwk.kid), { scope: 'read' })).access_token);
      const events = await eventsOf(server(), 'idp_client.keys_replaced');
      assert.ok(events.some((e) => (e.detail as { client_id?: string }).client_id === id));

      assertAdminError(await writer.put(`/idp/clients/${id}/keys`, { jwks: { keys: [{ kty: 'oct', k: 'c2VjcmV0' }] } }), 400, 'invalid', 'jwks');
      assertAdminError(await writer.put('/idp/clients/nobody/keys', { jwks: next.jwks }), 404, 'not_found', 'client_id');
      const secretClient = await writer.post('/idp/clients', { name: 'Secret', grant_types: ['client_credentials'] });
      assertAdminError(await writer.put(`/idp/clients/${secretClient.body.data.id}/keys`, { jwks: next.jwks }), 400, 'invalid', 'jwks');
    });

    it('refuses private keys, unusable keys, missing or misplaced keys and plain-http key URLs', async () => {
      const base = { name: 'Signer', grant_types: ['client_credentials'], token_endpoint_auth_method: 'private_key_jwt' };
      const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const privateJwk = rsa.privateKey.export({ format: 'jwk' });
      const publicJwk = rsa.publicKey.export({ format: 'jwk' });
      const weak = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ format: 'jwk' });
      const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' }).publicKey.export({ format: 'jwk' });
      const refusals: [Record<string, unknown>, string][] = [
        [{ ...base, jwks: { keys: [privateJwk] } }, 'jwks'],
        [{ ...base, jwks: { keys: [{ kty: 'oct', k: 'c2VjcmV0' }] } }, 'jwks'],
        [{ ...base, jwks: { keys: [weak] } }, 'jwks'],
        [{ ...base, jwks: { keys: [p384] } }, 'jwks'],
        [{ ...base, jwks: { keys: [{ ...publicJwk, alg: 'HS256' }] } }, 'jwks'],
        [{ ...base, jwks: { keys: [{ ...publicJwk, n: 'not-a-modulus' }] } }, 'jwks'],
        [{ ...base, jwks: { keys: [] } }, 'jwks'],
        [base, 'jwks'],
        [{ ...base, jwks: { keys: [publicJwk] }, jwks_uri: 'https://rp.example/jwks' }, 'jwks_uri'],
        [{ ...base, jwks_uri: 'http://rp.example/jwks' }, 'jwks_uri'],
        [{ ...base, jwks_uri: 'not a url' }, 'jwks_uri'],
        [{ name: 'Secret', grant_types: ['client_credentials'], jwks: { keys: [publicJwk] } }, 'jwks'],
        [{ name: 'SPA', type: 'public', redirect_uris: ['http://127.0.0.1/cb'], token_endpoint_auth_method: 'private_key_jwt', jwks: { keys: [publicJwk] } }, 'token_endpoint_auth_method'],
        [{ name: 'Backend', grant_types: ['client_credentials'], token_endpoint_auth_method: 'none' }, 'token_endpoint_auth_method'],
      ];
      for (const [body, param] of refusals) assertAdminError(await writer.post('/idp/clients', body), 400, 'invalid', param);
      // client_secret_jwt is not a method here (the secret is kept as a hash).
      assertAdminError(await writer.post('/idp/clients', { ...base, token_endpoint_auth_method: 'client_secret_jwt' }), 400, 'invalid');

      assert.equal((await writer.post('/idp/clients', { ...base, jwks: { keys: [publicJwk] } })).status, 201);
      assert.equal((await writer.post('/idp/clients', { ...base, jwks_uri: 'https://rp.example/jwks' })).status, 201);
    });
  });
});

describe('idp clients CLI: private_key_jwt [sqlite]', () => {
  const databaseUrl = migratedDatabaseUrl('sqlite');
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'jwks-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('registers keys from --jwks-file or --jwks-uri, with no secret', async () => {
    const { jwks } = await keyPair('ES256');
    const file = join(dir, 'jwks.json');
    writeFileSync(file, JSON.stringify(jwks));
    const inline = await cliJson(databaseUrl(), ['idp', 'clients', 'create', '--name', 'Signer', '--grant-type', 'client_credentials', '--auth-method', 'private_key_jwt', '--jwks-file', file]);
    assert.equal(inline.client_secret, null);
    assert.equal(inline.client.token_endpoint_auth_method, 'private_key_jwt');
    assert.deepEqual(inline.client.jwks, jwks);
    await cliError(databaseUrl(), ['idp', 'clients', 'rotate-secret', inline.client.id], 'private_key_jwt_client');

    const remote = await cliJson(databaseUrl(), ['idp', 'clients', 'create', '--name', 'Remote', '--grant-type', 'client_credentials', '--auth-method', 'private_key_jwt', '--jwks-uri', 'https://rp.example/jwks']);
    assert.equal(remote.client.jwks_uri, 'https://rp.example/jwks');
    // Its keys move: from the URL to a file.
    const moved = await cliJson(databaseUrl(), ['idp', 'clients', 'set-keys', remote.client.id, '--jwks-file', file]);
    assert.deepEqual(moved.client.jwks, jwks);
    assert.equal(moved.client.jwks_uri, null);

    writeFileSync(join(dir, 'broken.json'), '{"keys": [');
    await cliError(databaseUrl(), ['idp', 'clients', 'create', '--name', 'Broken', '--grant-type', 'client_credentials', '--auth-method', 'private_key_jwt', '--jwks-file', join(dir, 'broken.json')], 'invalid');
    // Outside a test or development (NODE_ENV=production), a key URL on this machine over http is refused too.
    await cliError(databaseUrl(), ['idp', 'clients', 'create', '--name', 'Local', '--grant-type', 'client_credentials', '--auth-method', 'private_key_jwt', '--jwks-uri', 'http://127.0.0.1:9/jwks'], 'invalid', { env: { NODE_ENV: 'production', FRONTEND_URL: 'https://app.example', SMTP_URL: 'smtp://relay.internal:25' } });
  });
});
