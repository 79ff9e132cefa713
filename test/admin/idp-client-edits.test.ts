import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import * as oidc from 'openid-client';
import { startTestServer, type TestServer } from '../support/server.js';
import { databaseKinds } from '../support/databases.js';
import { describeUnlessSkipped } from '../support/suites.js';
import { IDP_ENV, relyingParty } from '../idp/support.js';
import { AdminClient, adminUrl, assertAdminError, newKey } from './support.js';
import { listAuditEvents } from '../../src/store/audit-events.js';

// Editing an OpenID provider client through the admin API (PATCH): checked
// as a registration is, the fields left out kept, its secret untouched,
// and each edit an idp_client.updated event with the key as its actor.

for (const { kind, skip } of await databaseKinds()) {
  describeUnlessSkipped(`admin API: editing OpenID provider clients [${kind}]`, skip, () => {
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

    it('changes the fields given, keeps the rest and the secret, and records the edit', async () => {
      const made = await writer.post('/idp/clients', { name: 'Reports', grant_types: ['client_credentials', 'authorization_code'], scopes: ['openid', 'read'], redirect_uris: ['https://rp.example.com/cb'] });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      const { id } = made.body.data;
      const secret: string = made.body.meta.client_secret;

      const edited = await writer.patch(`/idp/clients/${id}`, {
        name: 'Monthly reports',
        redirect_uris: ['https://rp.example.com/cb', 'https://rp.example.com/cb2'],
        post_logout_redirect_uris: ['https://rp.example.com/bye'],
        backchannel_logout_uri: 'https://rp.example.com/logout',
        skip_consent: true,
      });
      assert.equal(edited.status, 200, JSON.stringify(edited.body));
      assert.equal(edited.body.data.name, 'Monthly reports');
      assert.deepEqual(edited.body.data.redirect_uris, ['https://rp.example.com/cb', 'https://rp.example.com/cb2']);
      assert.deepEqual(edited.body.data.scopes, ['openid', 'read'], 'a field left out stays');
      assert.equal(edited.body.data.backchannel_logout_uri, 'https://rp.example.com/logout');
      assert.equal(edited.body.data.skip_consent, true);
      assert.deepEqual((await reader.get(`/idp/clients/${id}`)).body.data, edited.body.data);

      const token = await oidc.clientCredentialsGrant(await relyingParty(server, { id, secret }), { scope: 'read' });
      assert.equal(token.scope, 'read', 'the secret shown at registration still works');

      assert.equal((await writer.patch(`/idp/clients/${id}`, { backchannel_logout_uri: null })).body.data.backchannel_logout_uri, null);
      const [event] = await listAuditEvents(server.app.deps.db, { types: ['idp_client.updated'], limit: 1 });
      assert.deepEqual([(event!.detail as any).client_id, (event!.detail as any).actor, (event!.detail as any).actor_id], [id, 'admin_api', writerKeyId]);
    });

    it('refuses what a registration refuses, naming the field, and changes nothing', async () => {
      const made = await writer.post('/idp/clients', { name: 'Web', redirect_uris: ['https://app.example.com/cb'] });
      const { id } = made.body.data;
      const refusedWith = async (body: unknown, param: string) => {
        const answer = await writer.patch(`/idp/clients/${id}`, body);
        assertAdminError(answer, 400, 'invalid', param);
        return answer;
      };
      const wildcard = await refusedWith({ redirect_uris: ['https://*.example.com/cb'] }, 'redirect_uris');
      assert.match(wildcard.body.errors[0].message, /wildcard|\*/i);
      await refusedWith({ allow_uri_wildcards: true, redirect_uris: ['https://*.com/cb'] }, 'redirect_uris');
      await refusedWith({ redirect_uris: [] }, 'redirect_uris');
      await refusedWith({ name: ' ' }, 'name');
      await refusedWith({ scopes: ['openid'], default_scopes: ['email'] }, 'default_scopes');
      await refusedWith({ backchannel_logout_uri: 'http://127.0.0.1/logout' }, 'backchannel_logout_uri');
      // What a client is and how it authenticates are not edited here.
      await refusedWith({ type: 'public' }, 'type');
      await refusedWith({ token_endpoint_auth_method: 'none' }, 'token_endpoint_auth_method');
      const now = (await reader.get(`/idp/clients/${id}`)).body.data;
      assert.equal(now.name, 'Web');
      assert.deepEqual(now.redirect_uris, ['https://app.example.com/cb']);

      const wildcards = await writer.patch(`/idp/clients/${id}`, { allow_uri_wildcards: true, redirect_uris: ['https://*.example.com/cb'] });
      assert.equal(wildcards.status, 200, JSON.stringify(wildcards.body));
      assertAdminError(await writer.patch('/idp/clients/no-such-client', { name: 'x' }), 404, 'not_found', 'client_id');
      assertAdminError(await reader.patch(`/idp/clients/${id}`, { name: 'x' }), 403, 'insufficient_scope');
    });
  });
}
