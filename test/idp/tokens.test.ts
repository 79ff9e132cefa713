import { it } from 'node:test';
import assert from 'node:assert/strict';
import * as oidc from 'openid-client';
import { describeEachDatabase } from '../support/server.js';
import { eventsOf } from '../audit/support.js';
import { IDP_ENV, codeFlow, loggedInBrowser, navigate, registerClient, relyingParty } from './support.js';

// Refresh tokens (rotation, and a replayed one revoking its grant),
// client credentials, revocation (RFC 7009) and introspection (RFC 7662),
// with openid-client as the relying party and as the resource server.

describeEachDatabase('OpenID provider: tokens', IDP_ENV, ({ server }) => {
  it('rotates refresh tokens; a replayed one revokes the whole grant', async () => {
    const client = await registerClient(server());
    const rp = await relyingParty(server(), client);
    const { api } = await loggedInBrowser(server());
    const { tokens } = await codeFlow(server(), rp, api);
    const first = tokens.refresh_token!;
    // Ten days later (the server's clock), the refresh also carries the grant on.
    server().clock.advance(10 * 86400_000);
    let refreshed;
    try {
      refreshed = await oidc.refreshTokenGrant(rp, first);
      const grants = await server().app.deps.db.selectFrom('idp_payloads').select(['expires_at']).where('model', '=', 'Grant').execute();
      assert.ok(grants.some((g) => Number(g.expires_at) > server().clock.now() + 90 * 86400_000 - 60_000));
    } finally {
      server().clock.advance(-10 * 86400_000);
    }
    assert.ok(refreshed.refresh_token);
    assert.notEqual(refreshed.refresh_token, first);
    assert.ok(refreshed.id_token, 'an ID token again');
    assert.equal((await oidc.tokenIntrospection(rp, refreshed.access_token)).active, true);

    await assert.rejects(oidc.refreshTokenGrant(rp, first), (e: any) => e.error === 'invalid_grant');
    // The family is gone: the rotated-to token and its access token too.
    await assert.rejects(oidc.refreshTokenGrant(rp, refreshed.refresh_token!), (e: any) => e.error === 'invalid_grant');
    assert.equal((await oidc.tokenIntrospection(rp, refreshed.access_token)).active, false);
    const reused = await eventsOf(server(), 'idp.refresh_token_reused');
    assert.ok(reused.some((e) => (e.detail as { client_id?: string }).client_id === client.id));
  });

  it('issues client credentials tokens a resource server can introspect', async () => {
    const client = await registerClient(server(), { grantTypes: ['client_credentials'], redirectUris: [], scopes: ['read', 'write'] });
    const rp = await relyingParty(server(), client);
    const tokens = await oidc.clientCredentialsGrant(rp, { scope: 'read' });
    assert.equal(tokens.token_type.toLowerCase(), 'bearer');
    assert.equal(tokens.refresh_token, undefined);
    assert.equal(tokens.scope, 'read');

    const resource = await registerClient(server(), { name: 'API', grantTypes: ['client_credentials'], redirectUris: [], scopes: ['openid'], resourceServer: true });
    const rs = await relyingParty(server(), resource);
    const info = await oidc.tokenIntrospection(rs, tokens.access_token);
    assert.equal(info.active, true);
    assert.equal(info.client_id, client.id);
    assert.equal(info.scope, 'read');
    assert.equal((await oidc.tokenIntrospection(rs, 'not-a-token')).active, false);

    // A scope the client may not have is left out of the token (RFC 6749 section 3.3), never granted.
    const narrowed = await oidc.clientCredentialsGrant(rp, { scope: 'read admin' });
    assert.equal(narrowed.scope, 'read');
    const issued = await eventsOf(server(), 'idp.token_issued');
    assert.ok(issued.some((e) => (e.detail as { client_id?: string; grant_type?: string }).client_id === client.id && (e.detail as { grant_type?: string }).grant_type === 'client_credentials'));
  });

  it('revokes access and refresh tokens (RFC 7009)', async () => {
    const client = await registerClient(server());
    const rp = await relyingParty(server(), client);
    const { api } = await loggedInBrowser(server());
    const { tokens } = await codeFlow(server(), rp, api);
    await oidc.tokenRevocation(rp, tokens.access_token);
    assert.equal((await oidc.tokenIntrospection(rp, tokens.access_token)).active, false);
    await assert.rejects(oidc.fetchUserInfo(rp, tokens.access_token, tokens.claims()!.sub));

    await oidc.tokenRevocation(rp, tokens.refresh_token!);
    await assert.rejects(oidc.refreshTokenGrant(rp, tokens.refresh_token!), (e: any) => e.error === 'invalid_grant');
    // An unknown token is no error (RFC 7009 section 2.2).
    await oidc.tokenRevocation(rp, 'unknown');
    const revoked = await eventsOf(server(), 'idp.token_revoked');
    assert.ok(revoked.some((e) => (e.detail as { client_id?: string }).client_id === client.id));
  });

  it('stores no token in the clear', async () => {
    const client = await registerClient(server());
    const rp = await relyingParty(server(), client);
    const { api } = await loggedInBrowser(server());
    const { tokens } = await codeFlow(server(), rp, api);
    const rows = await server().app.deps.db.selectFrom('idp_payloads').select(['id', 'payload']).execute();
    const dump = JSON.stringify(rows);
    assert.ok(!dump.includes(tokens.access_token));
    assert.ok(!dump.includes(tokens.refresh_token!));
  });
});

describeEachDatabase('OpenID provider: CORS and wildcard redirect URIs', IDP_ENV, ({ server }) => {
  it('answers the token endpoint cross-origin only to a client\'s registered origins', async () => {
    const client = await registerClient(server(), { type: 'public', grantTypes: ['authorization_code'], corsOrigins: ['https://spa.example.com'] });
    const post = (origin: string) =>
      fetch(`${server().baseUrl}/identity/o/api/token`, {
        method: 'POST',
        headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'authorization_code', code: 'x', client_id: client.id, redirect_uri: 'http://rp.test/callback', code_verifier: 'v'.repeat(43) }),
      });
    const allowed = await post('https://spa.example.com');
    assert.equal(allowed.headers.get('access-control-allow-origin'), 'https://spa.example.com');
    const other = await post('https://evil.example.com');
    assert.notEqual(other.headers.get('access-control-allow-origin'), 'https://evil.example.com');
  });

  it('a client that allows wildcards gets codes at any one-label subdomain', async () => {
    const client = await registerClient(server(), { allowUriWildcards: true, redirectUris: ['http://*.rp.test/callback'] });
    const rp = await relyingParty(server(), client);
    const { api } = await loggedInBrowser(server());
    const good = oidc.buildAuthorizationUrl(rp, { redirect_uri: 'http://tenant1.rp.test/callback', scope: 'openid', state: 's' });
    const first = await navigate(server(), api, good);
    assert.equal(first.page?.status, 200, 'the consent page');
    const bad = oidc.buildAuthorizationUrl(rp, { redirect_uri: 'http://a.b.rp.test/callback', scope: 'openid', state: 's' });
    assert.equal((await navigate(server(), api, bad)).page?.status, 400);
  });
});
