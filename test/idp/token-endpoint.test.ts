import { it } from 'node:test';
import assert from 'node:assert/strict';
import * as oidc from 'openid-client';
import { describeEachDatabase } from '../support/server.js';
import { deliveriesOf, eventsOf } from '../audit/support.js';
import { cliJson } from '../cli/support.js';
import { closeDatabase, openDatabase } from '../../src/store/db.js';
import { findIdpClient, upsertIdpClient } from '../../src/store/idp-clients.js';
import { IDP_ENV, registerClient, relyingParty } from './support.js';

// The token endpoint under concurrent requests: tokens minted at the same
// time are written together, as are their audit events (idp/adapter.ts,
// flows/idp/provider.ts, one statement for the events no webhook follows);
// each must still be stored, answered and recorded. The client is read from
// the database for every request (requests arriving together share a read
// sent after they arrived, store/idp-clients.ts), so a change made by
// another process (the CLI) counts from the next request, however many
// requests come at once.

// The webhooks follow token revocations only, so that issued tokens take the one-statement path and revoked ones the one with an outbox row each.
const ENV = { ...IDP_ENV, WEBHOOK_URLS: 'http://127.0.0.1:9/hook', WEBHOOK_SECRET: `whsec_${Buffer.alloc(32, 7).toString('base64')}`, WEBHOOK_EVENTS: 'idp.token_revoked', WEBHOOK_MAX_ATTEMPTS: '1' };

/** A 401 with invalid_client in its WWW-Authenticate challenge (client_secret_basic, RFC 6749 section 5.2). */
const refusedClient = (e: any) => e.status === 401 && e.cause?.[0]?.parameters?.error === 'invalid_client';

describeEachDatabase('OpenID provider: the token endpoint under load', ENV, ({ server }) => {
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
    // Event ids begin with the event's time (audit/recorder.ts): in id order, never back in time.
    const byId = [...issued].sort((a, b) => (a.eventId < b.eventId ? -1 : 1));
    byId.slice(1).forEach((e, i) => assert.ok(e.occurredAt >= byId[i]!.occurredAt, `${e.eventId} after ${byId[i]!.eventId}`));
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
    // Many at once, old and new secrets mixed: each request reads the client after it arrived.
    const mixed = await Promise.allSettled(Array.from({ length: 30 }, (_, i) => oidc.clientCredentialsGrant(i % 2 ? after : before, { scope: 'read' })));
    mixed.forEach((outcome, i) => {
      if (i % 2) assert.equal(outcome.status, 'fulfilled', `request ${i} with the new secret`);
      else assert.ok(outcome.status === 'rejected' && refusedClient(outcome.reason), `request ${i} with the old secret`);
    });

    await cliJson(databaseUrl, ['idp', 'clients', 'delete', client.id]);
    const deleted = await Promise.allSettled(Array.from({ length: 10 }, () => oidc.clientCredentialsGrant(after, { scope: 'read' })));
    assert.ok(deleted.every((outcome) => outcome.status === 'rejected' && refusedClient(outcome.reason)));
  });

  it('gives a client\'s scopes as its row has them, changed by another connection, from the next request', async () => {
    const client = await registerClient(server(), { grantTypes: ['client_credentials'], redirectUris: [], scopes: ['read'] });
    const rp = await relyingParty(server(), client);
    // What a request for `read write` is granted: a scope the client does not have is refused or left out.
    const granted = () => oidc.clientCredentialsGrant(rp, { scope: 'read write' }).then((t) => t.scope, (e: any) => `refused ${e.error}`);
    assert.notEqual(await granted(), 'read write');
    // Another connection to the database, as another process or instance would hold.
    const other = openDatabase(server().app.deps.config.databaseUrl);
    try {
      const record = (await findIdpClient(other, client.id))!;
      await upsertIdpClient(other, { ...record, scopes: ['read', 'write'] });
      assert.deepEqual(await Promise.all(Array.from({ length: 10 }, granted)), Array(10).fill('read write'));
      await upsertIdpClient(other, { ...record, scopes: ['read'] });
      assert.ok((await Promise.all(Array.from({ length: 10 }, granted))).every((scope) => scope !== 'read write'));
    } finally {
      await closeDatabase(other);
    }
  });

  it('records every one of many revocations at once with its webhook delivery', async () => {
    const client = await registerClient(server(), { grantTypes: ['client_credentials'], redirectUris: [], scopes: ['read'] });
    const rp = await relyingParty(server(), client);
    const tokens = await Promise.all(Array.from({ length: 12 }, () => oidc.clientCredentialsGrant(rp, { scope: 'read' })));
    await Promise.all(tokens.map((t) => oidc.tokenRevocation(rp, t.access_token)));
    const introspected = await Promise.all(tokens.map((t) => oidc.tokenIntrospection(rp, t.access_token)));
    assert.ok(introspected.every((info) => info.active === false));
    const revoked = (await eventsOf(server(), 'idp.token_revoked')).filter((e) => (e.detail as { client_id?: string }).client_id === client.id);
    assert.equal(revoked.length, 12);
    const delivered = new Set((await deliveriesOf(server())).map((d) => d.eventId));
    assert.ok(revoked.every((e) => delivered.has(e.eventId)), 'each revocation has its outbox row');
    // Issued tokens are not among the webhook's events: no outbox row for them.
    const issued = (await eventsOf(server(), 'idp.token_issued')).filter((e) => (e.detail as { client_id?: string }).client_id === client.id);
    assert.equal(issued.length, 12);
    assert.ok(issued.every((e) => !delivered.has(e.eventId)));
  });
});
