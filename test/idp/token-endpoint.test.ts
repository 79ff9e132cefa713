import { it } from 'node:test';
import assert from 'node:assert/strict';
import * as oidc from 'openid-client';
import { describeEachDatabase } from '../support/server.js';
import { eventsOf } from '../audit/support.js';
import { cliJson } from '../cli/support.js';
import { IDP_ENV, registerClient, relyingParty } from './support.js';

// The token endpoint under concurrent requests: tokens minted at the same
// time are written together, as are their audit events (idp/adapter.ts,
// flows/idp/provider.ts); each must still be stored, answered and recorded.
// The client is read from the database on every request, never cached, so
// a change made by another process (the CLI) counts from the next request.

/** A 401 with invalid_client in its WWW-Authenticate challenge (client_secret_basic, RFC 6749 section 5.2). */
const refusedClient = (e: any) => e.status === 401 && e.cause?.[0]?.parameters?.error === 'invalid_client';

describeEachDatabase('OpenID provider: the token endpoint under load', IDP_ENV, ({ server }) => {
  it('stores and records every one of many client credentials tokens issued at once', async () => {
    const client = await registerClient(server(), { grantTypes: ['client_credentials'], redirectUris: [], scopes: ['read'] });
    const rp = await relyingParty(server(), client);
    const tokens = await Promise.all(Array.from({ length: 40 }, () => oidc.clientCredentialsGrant(rp, { scope: 'read' })));
    assert.equal(new Set(tokens.map((t) => t.access_token)).size, 40);
    const introspected = await Promise.all(tokens.map((t) => oidc.tokenIntrospection(rp, t.access_token)));
    assert.ok(introspected.every((info) => info.active === true && info.client_id === client.id && info.scope === 'read'));
    const issued = (await eventsOf(server(), 'idp.token_issued')).filter((e) => (e.detail as { client_id?: string }).client_id === client.id);
    assert.equal(issued.length, 40);
    assert.equal(new Set(issued.map((e) => e.eventId)).size, 40);
  });

  it('refuses a rotated secret and a deleted client from the next request, changed by the CLI in another process', async () => {
    const client = await registerClient(server(), { grantTypes: ['client_credentials'], redirectUris: [], scopes: ['read'] });
    const before = await relyingParty(server(), client);
    await oidc.clientCredentialsGrant(before, { scope: 'read' });
    const databaseUrl = server().app.deps.config.databaseUrl;

    const rotated = await cliJson(databaseUrl, ['idp', 'clients', 'rotate-secret', client.id]);
    await assert.rejects(oidc.clientCredentialsGrant(before, { scope: 'read' }), refusedClient);
    const after = await relyingParty(server(), { id: client.id, secret: rotated.client_secret });
    await oidc.clientCredentialsGrant(after, { scope: 'read' });

    await cliJson(databaseUrl, ['idp', 'clients', 'delete', client.id]);
    await assert.rejects(oidc.clientCredentialsGrant(after, { scope: 'read' }), refusedClient);
  });
});
