import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import * as oidc from 'openid-client';
import { startTestServer, type TestServer } from '../support/server.js';
import { databaseKinds } from '../support/databases.js';
import { describeUnlessSkipped } from '../support/suites.js';
import { IDP_ENV, relyingParty } from '../idp/support.js';
import { AdminClient, adminUrl, assertAdminError, newKey } from './support.js';
import { listAuditEvents } from '../../src/store/audit-events.js';

// The OpenID provider's clients through the admin API: the same flow as
// `headless-auth idp clients`, so a client registered here gets tokens with
// the secret the answer shows once, and each change is an audit event with
// the key as its actor.

for (const { kind, skip } of await databaseKinds()) {
  describeUnlessSkipped(`admin API: OpenID provider clients [${kind}]`, skip, () => {
    let server: TestServer;
    let writer: AdminClient;
    let reader: AdminClient;
    let writerKeyId: number;
    before(async () => {
      server = await startTestServer(kind, { ...IDP_ENV, ADMIN_PORT: '0' });
      const base = await adminUrl(server);
      const writeKey = await newKey(server, 'write');
      writerKeyId = writeKey.id;
      writer = new AdminClient(base, writeKey.secret);
      reader = new AdminClient(base, (await newKey(server, 'read')).secret);
    });
    after(() => server?.close());

    // A refused client: 401 with a WWW-Authenticate challenge naming invalid_client.
    const refusedClient = (e: any) => e.response?.status === 401 && JSON.stringify(e.cause).includes('invalid_client');
    const tokenWith = async (id: string, secret: string) => oidc.clientCredentialsGrant(await relyingParty(server, { id, secret }), { scope: 'read' });

    it('registers a client whose secret, shown once, gets tokens; rotates it and removes the client', async () => {
      const created = await writer.post('/idp/clients', { name: 'Reports', grant_types: ['client_credentials'], scopes: ['read'] });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const { id } = created.body.data;
      const secret: string = created.body.meta.client_secret;
      assert.equal(created.body.data.type, 'confidential');
      assert.deepEqual(created.body.data.grant_types, ['client_credentials']);
      assert.equal('secret_hash' in created.body.data, false);
      assert.equal((await tokenWith(id, secret)).scope, 'read');

      const listed = await reader.get('/idp/clients');
      assert.equal(listed.status, 200);
      assert.ok(listed.body.data.some((c: { id: string }) => c.id === id));
      assert.equal(JSON.stringify(listed.body).includes(secret), false, 'a listing never shows a secret');
      assert.equal((await reader.get(`/idp/clients/${id}`)).body.data.name, 'Reports');

      const rotated = await writer.post(`/idp/clients/${id}/rotate-secret`);
      assert.equal(rotated.status, 200);
      const next: string = rotated.body.meta.client_secret;
      assert.notEqual(next, secret);
      await assert.rejects(tokenWith(id, secret), refusedClient);
      assert.equal((await tokenWith(id, next)).scope, 'read');

      assert.equal((await writer.delete(`/idp/clients/${id}`)).status, 200);
      await assert.rejects(tokenWith(id, next), refusedClient);
      assertAdminError(await writer.get(`/idp/clients/${id}`), 404, 'not_found', 'client_id');
      assertAdminError(await writer.delete(`/idp/clients/${id}`), 404, 'not_found', 'client_id');

      const events = await listAuditEvents(server.app.deps.db, { types: ['idp_client.created', 'idp_client.secret_rotated', 'idp_client.deleted'], limit: 10 });
      const mine = events.filter((e) => (e.detail as { client_id?: string }).client_id === id);
      assert.deepEqual(mine.map((e) => e.type).sort(), ['idp_client.created', 'idp_client.deleted', 'idp_client.secret_rotated']);
      for (const event of mine) {
        const detail = event.detail as { actor?: string; actor_id?: number };
        assert.deepEqual([detail.actor, detail.actor_id], ['admin_api', writerKeyId]);
      }
    });

    it("refuses what the client model refuses, a taken id, a public client's rotation, and changes with a read key", async () => {
      assertAdminError(await writer.post('/idp/clients', { name: 'Bad', redirect_uris: ['not a uri'] }), 400, 'invalid', 'redirect_uris');
      assertAdminError(await writer.post('/idp/clients', { name: 'Bad', grant_types: ['password'] }), 400, 'invalid');
      assertAdminError(await writer.post('/idp/clients', { name: 'Bad', secret: 'mine' }), 400, 'invalid');
      const app = await writer.post('/idp/clients', { name: 'SPA', id: 'spa-client', type: 'public', redirect_uris: ['https://spa.example/callback'] });
      assert.equal(app.status, 201, JSON.stringify(app.body));
      assert.equal(app.body.meta.client_secret, null);
      assertAdminError(await writer.post('/idp/clients', { name: 'Again', id: 'spa-client', redirect_uris: ['https://spa.example/callback'] }), 409, 'client_exists', 'id');
      assertAdminError(await writer.post('/idp/clients/spa-client/rotate-secret'), 409, 'public_client', 'client_id');
      assertAdminError(await reader.post('/idp/clients', { name: 'Sneaky', grant_types: ['client_credentials'] }), 403, 'insufficient_scope');
      assertAdminError(await reader.delete('/idp/clients/spa-client'), 403, 'insufficient_scope');
      assert.equal((await reader.get('/idp/clients/spa-client')).status, 200);
    });

    // Issue 33, findings 4, 8a and 8c: what the matcher and the back-channel sender must not be given.
    it('refuses loose wildcards, userinfo and private back-channel logout addresses, naming the field', async () => {
      const register = (body: Record<string, unknown>) => writer.post('/idp/clients', { name: 'RP', ...body });
      for (const uri of ['https://*example.com/cb', 'https://*/cb', 'https://example.*/cb', 'https://*.com/cb', 'https://*.co.uk/cb']) {
        assertAdminError(await register({ redirect_uris: [uri], allow_uri_wildcards: true }), 400, 'invalid', 'redirect_uris');
        assertAdminError(await register({ redirect_uris: ['https://rp.example.com/cb'], cors_origins: [uri.replace('/cb', '')], allow_uri_wildcards: true }), 400, 'invalid', 'cors_origins');
      }
      for (const uri of ['https://evil@wiki.example.com/cb', 'https://user:pw@wiki.example.com/cb']) {
        assertAdminError(await register({ redirect_uris: [uri] }), 400, 'invalid', 'redirect_uris');
      }
      assertAdminError(await register({ redirect_uris: ['https://rp.example.com/cb'], cors_origins: ['https://evil@rp.example.com'] }), 400, 'invalid', 'cors_origins');
      for (const uri of ['http://127.0.0.1:8080/logout', 'http://localhost/logout', 'http://2130706433/', 'http://0x7f.1/', 'http://0/', 'http://10.0.0.5/', 'http://169.254.169.254/latest', 'http://[::1]/', 'http://[::ffff:127.0.0.1]/', 'http://[fd12::1]/', 'http://[fe80::1]/', 'https://user:pw@rp.example.com/logout']) {
        assertAdminError(await register({ redirect_uris: ['https://rp.example.com/cb'], backchannel_logout_uri: uri }), 400, 'invalid', 'backchannel_logout_uri');
      }
      const fine = await register({ redirect_uris: ['https://*.example.com/cb'], cors_origins: ['https://*.example.co.uk'], allow_uri_wildcards: true, backchannel_logout_uri: 'https://rp.example.com/logout' });
      assert.equal(fine.status, 201, JSON.stringify(fine.body));
    });
  });
}
