import { it } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import * as oidc from 'openid-client';
import { createRemoteJWKSet, decodeJwt, jwtVerify } from 'jose';
import { describeEachDatabase, type TestServer } from '../support/server.js';
import { eventsOf } from '../audit/support.js';
import { createIdpClient } from '../../src/flows/admin/idp-clients.js';
import { cliSource } from '../../src/audit/recorder.js';
import { IDP_ENV, codeFlow, loggedInBrowser, registerClient, relyingParty } from './support.js';

// Token exchange (RFC 8693): a service exchanges a user's access token for
// one of its own for the same user, with an act claim naming it; every
// refusal with its OAuth error, over real token requests.

const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ACCESS_TOKEN = 'urn:ietf:params:oauth:token-type:access_token';
const ORDERS = 'https://orders.example.com';
const FILES = 'https://files.example.com';
const RESOURCE_SERVERS = JSON.stringify([
  { resource: ORDERS, scopes: ['orders.read'], access_token_format: 'jwt' },
  { resource: FILES, scopes: ['files.read'] },
]);
const ENV = { ...IDP_ENV, IDP_OIDC_RESOURCE_SERVERS: RESOURCE_SERVERS };

/** A user's access token from a code flow of an application (scope openid email profile orders.read). */
async function userToken(server: TestServer) {
  const app = await registerClient(server, { scopes: ['openid', 'email', 'profile', 'orders.read'] });
  const rp = await relyingParty(server, app);
  const { api, email } = await loggedInBrowser(server);
  const { tokens } = await codeFlow(server, rp, api, { scope: 'openid email profile orders.read' });
  return { app, rp, email, token: tokens.access_token, sub: tokens.claims()!.sub };
}

/** A service allowed token exchange (and client credentials, for its actor tokens). */
async function service(server: TestServer, scopes = ['openid', 'email', 'orders.read']) {
  const client = await registerClient(server, { name: 'Orders service', grantTypes: [TOKEN_EXCHANGE, 'client_credentials'], redirectUris: [], scopes });
  return { client, rp: await relyingParty(server, client) };
}

const exchange = (rp: oidc.Configuration, subjectToken: string, params: Record<string, string> = {}) =>
  oidc.genericGrantRequest(rp, TOKEN_EXCHANGE, { subject_token: subjectToken, subject_token_type: ACCESS_TOKEN, ...params });

const refusedWith = (error: string) => (e: any) => {
  assert.equal(e.error, error, JSON.stringify(e.cause ?? e.message));
  return true;
};

describeEachDatabase('OpenID provider: token exchange', ENV, ({ server }) => {
  it('is announced in discovery', async () => {
    const doc = await (await fetch(`${server().baseUrl}/.well-known/openid-configuration`)).json();
    assert.ok(doc.grant_types_supported.includes(TOKEN_EXCHANGE));
  });

  it('exchanges a user\'s token for the service\'s own, with act, the common scope, userinfo and introspection', async () => {
    const user = await userToken(server());
    const { client, rp } = await service(server());
    const exchanged = await exchange(rp, user.token);
    assert.equal(exchanged.issued_token_type, ACCESS_TOKEN);
    assert.equal(exchanged.token_type.toLowerCase(), 'bearer');
    // profile is the subject token's but not the service's: left out.
    assert.equal(exchanged.scope, 'openid email orders.read');
    assert.equal(exchanged.refresh_token, undefined);
    assert.ok(exchanged.expires_in! <= 3600);

    const info = await oidc.tokenIntrospection(rp, exchanged.access_token);
    assert.equal(info.active, true);
    assert.equal(info.sub, user.sub);
    assert.equal(info.client_id, client.id);
    assert.deepEqual(info.act, { sub: client.id });
    assert.equal((await oidc.fetchUserInfo(rp, exchanged.access_token, user.sub)).email, user.email);

    // Exchanged again by another service: the act claims nest, the latest actor outermost.
    const other = await service(server());
    const twice = await exchange(other.rp, exchanged.access_token, { scope: 'email' });
    assert.equal(twice.scope, 'email');
    assert.deepEqual((await oidc.tokenIntrospection(other.rp, twice.access_token)).act, { sub: other.client.id, act: { sub: client.id } });

    const issued = await eventsOf(server(), 'idp.token_issued', Number(user.sub));
    assert.ok(issued.some((e) => (e.detail as { client_id?: string; grant_type?: string }).client_id === client.id && (e.detail as { grant_type?: string }).grant_type === TOKEN_EXCHANGE));
  });

  it('takes the service\'s own client credentials token as actor token, and no other', async () => {
    const user = await userToken(server());
    const { rp } = await service(server());
    const own = await oidc.clientCredentialsGrant(rp, { scope: 'email' });
    const exchanged = await exchange(rp, user.token, { actor_token: own.access_token, actor_token_type: ACCESS_TOKEN });
    assert.ok(exchanged.access_token);

    const other = await service(server());
    const theirs = await oidc.clientCredentialsGrant(other.rp, { scope: 'email' });
    await assert.rejects(exchange(rp, user.token, { actor_token: theirs.access_token, actor_token_type: ACCESS_TOKEN }), refusedWith('invalid_grant'));
    await assert.rejects(exchange(rp, user.token, { actor_token: own.access_token }), refusedWith('invalid_request'));
  });

  it('for a resource: a JWT with its audience, its scopes and act', async () => {
    const user = await userToken(server());
    const { client, rp } = await service(server());
    const exchanged = await exchange(rp, user.token, { audience: ORDERS });
    assert.equal(exchanged.scope, 'orders.read');
    const jwks = createRemoteJWKSet(new URL(`${server().baseUrl}/.well-known/jwks.json`));
    const { payload } = await jwtVerify(exchanged.access_token, jwks, { issuer: server().baseUrl, audience: ORDERS });
    assert.equal(payload.sub, user.sub);
    assert.deepEqual(payload.act, { sub: client.id });
    await assert.rejects(exchange(rp, user.token, { resource: 'https://unknown.example.com' }), refusedWith('invalid_target'));
    const both = new URLSearchParams({ subject_token: user.token, subject_token_type: ACCESS_TOKEN });
    both.append('resource', ORDERS);
    both.append('resource', FILES);
    await assert.rejects(oidc.genericGrantRequest(rp, TOKEN_EXCHANGE, both), refusedWith('invalid_target'));
  });

  it('keeps the subject token\'s audience by default, and never outlives it', async () => {
    // A user's token for the files API, exchanged without naming a resource.
    const app = await registerClient(server(), { scopes: ['openid', 'files.read'], skipConsent: true });
    const appRp = await relyingParty(server(), app);
    const { api } = await loggedInBrowser(server());
    const { tokens } = await codeFlow(server(), appRp, api, { scope: 'openid files.read', resource: FILES });
    const { client, rp } = await service(server(), ['files.read']);
    server().clock.advance(3000_000);
    try {
      const exchanged = await exchange(rp, tokens.access_token);
      assert.ok(exchanged.expires_in! <= 600, `expires in ${exchanged.expires_in}`);
      const info = await oidc.tokenIntrospection(rp, exchanged.access_token);
      assert.equal(info.aud, FILES);
      assert.equal(info.scope, 'files.read');
      assert.deepEqual(info.act, { sub: client.id });
      // The service's grant behind the token ends with it.
      const grants = await server().app.deps.db.selectFrom('idp_payloads').select(['payload', 'expires_at']).where('model', '=', 'Grant').execute();
      const own = grants.filter((g) => JSON.parse(g.payload).clientId === client.id);
      assert.equal(own.length, 1);
      assert.ok(Number(own[0]!.expires_at) <= server().clock.now() + 601_000);
    } finally {
      server().clock.advance(-3000_000);
    }
  });

  it('refuses: unknown, revoked and expired subject tokens, scope escalation, a client not allowed the grant, an inactive user', async () => {
    const user = await userToken(server());
    const { rp } = await service(server());
    await assert.rejects(exchange(rp, 'not-a-token'), refusedWith('invalid_grant'));
    await assert.rejects(exchange(rp, user.token, { subject_token_type: 'urn:ietf:params:oauth:token-type:id_token' }), refusedWith('invalid_request'));
    // phone: neither the subject token's nor the service's; profile: the subject token's, not the service's.
    await assert.rejects(exchange(rp, user.token, { scope: 'openid phone' }), refusedWith('invalid_scope'));
    await assert.rejects(exchange(rp, user.token, { scope: 'profile' }), refusedWith('invalid_scope'));
    // The application itself was never allowed the grant.
    await assert.rejects(exchange(user.rp, user.token), refusedWith('unauthorized_client'));

    server().clock.advance(3601_000);
    try {
      await assert.rejects(exchange(rp, user.token), refusedWith('invalid_grant'));
    } finally {
      server().clock.advance(-3601_000);
    }
    assert.ok((await exchange(rp, user.token)).access_token, 'valid again once the clock is back');

    await server().app.deps.db.updateTable('users').set({ is_active: 0 }).where('id', '=', Number(user.sub)).execute();
    await assert.rejects(exchange(rp, user.token), refusedWith('invalid_grant'));
    await server().app.deps.db.updateTable('users').set({ is_active: 1 }).where('id', '=', Number(user.sub)).execute();

    await oidc.tokenRevocation(user.rp, user.token);
    await assert.rejects(exchange(rp, user.token), refusedWith('invalid_grant'));
  });

  it('refuses a subject token of another issuer (another host name of this server)', async () => {
    const user = await userToken(server());
    const { client } = await service(server());
    const url = new URL('/identity/o/api/token', server().baseUrl);
    const body = new URLSearchParams({ grant_type: TOKEN_EXCHANGE, subject_token: user.token, subject_token_type: ACCESS_TOKEN }).toString();
    const post = (host: string) =>
      new Promise<{ status: number; body: any }>((resolve, reject) => {
        const req = request(url, { method: 'POST', headers: { host, 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}` } }, (res) => {
          let text = '';
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
        });
        req.on('error', reject);
        req.end(body);
      });
    const elsewhere = await post(`localhost:${url.port}`);
    assert.equal(elsewhere.status, 400);
    assert.equal(elsewhere.body.error, 'invalid_grant');
    assert.equal((await post(url.host)).status, 200, 'the same request to the issuer of the token');
  });

  it('a public client may not be registered for it', async () => {
    const result = await createIdpClient(server().app.deps, cliSource(server().clock.now()), { name: 'SPA', type: 'public', grantTypes: [TOKEN_EXCHANGE] });
    assert.equal(result.ok, false);
    assert.equal(!result.ok && result.reason === 'invalid' && result.param, 'grant_types');
  });
});

describeEachDatabase('OpenID provider: token exchange with JWT access tokens', { ...ENV, IDP_OIDC_ACCESS_TOKEN_FORMAT: 'jwt' }, ({ server }) => {
  it('puts act in the JWT, nested over the subject token\'s', async () => {
    const user = await userToken(server());
    const first = await service(server());
    const once = await exchange(first.rp, user.token);
    const jwks = createRemoteJWKSet(new URL(`${server().baseUrl}/.well-known/jwks.json`));
    const { payload } = await jwtVerify(once.access_token, jwks, { issuer: server().baseUrl });
    assert.deepEqual(payload.act, { sub: first.client.id });
    assert.equal(payload.sub, user.sub);
    assert.equal(payload.aud, undefined);

    const second = await service(server());
    const twice = await exchange(second.rp, once.access_token);
    assert.deepEqual(decodeJwt(twice.access_token).act, { sub: second.client.id, act: { sub: first.client.id } });
    assert.equal((await oidc.tokenIntrospection(second.rp, twice.access_token)).active, true);
  });
});
