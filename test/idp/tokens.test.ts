import { it } from 'node:test';
import assert from 'node:assert/strict';
import * as oidc from 'openid-client';
import { describeEachDatabase } from '../support/server.js';
import { eventsOf } from '../audit/support.js';
import { IDP_ENV, codeFlow, loggedInBrowser, registerClient, relyingParty } from './support.js';

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
    const refreshed = await oidc.refreshTokenGrant(rp, first);
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

    const resource = await registerClient(server(), { name: 'API', grantTypes: ['client_credentials'], redirectUris: [], scopes: ['openid'] });
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
