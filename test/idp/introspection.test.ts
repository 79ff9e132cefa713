import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as oidc from 'openid-client';
import { describeEachDatabase } from '../support/server.js';
import { migratedDatabaseUrl } from '../support/databases.js';
import { closeDatabase, openDatabase } from '../../src/store/db.js';
import { findIdpClient } from '../../src/store/idp-clients.js';
import { cliError, cliJson } from '../cli/support.js';
import { AdminClient, adminUrl, assertAdminError, newKey } from '../admin/support.js';
import { IDP_ENV, codeFlow, loggedInBrowser, registerClient, relyingParty } from './support.js';

// Introspection (RFC 7662) tells a token's state to the client it was
// issued to and to clients registered as resource servers; to any other
// client the token is `active: false`, as an unknown one (issue 33).

describeEachDatabase('OpenID provider: who may introspect', { ...IDP_ENV, ADMIN_PORT: '0' }, ({ server }) => {
  let admin: AdminClient;
  before(async () => {
    admin = new AdminClient(await adminUrl(server()), (await newKey(server(), 'write')).secret);
  });

  const api = (resourceServer: boolean) => registerClient(server(), { name: 'API', grantTypes: ['client_credentials'], redirectUris: [], scopes: ['read'], resourceServer });

  it('a user\'s tokens: their own client and a resource server see them, another client does not', async () => {
    const owner = await registerClient(server());
    const ownerRp = await relyingParty(server(), owner);
    const { api: browser } = await loggedInBrowser(server());
    const { tokens } = await codeFlow(server(), ownerRp, browser);
    const other = await relyingParty(server(), await api(false));
    const resource = await relyingParty(server(), await api(true));

    for (const token of [tokens.access_token, tokens.refresh_token!]) {
      assert.equal((await oidc.tokenIntrospection(ownerRp, token)).active, true);
      assert.deepEqual(await oidc.tokenIntrospection(other, token), { active: false });
      const seen = await oidc.tokenIntrospection(resource, token);
      assert.equal(seen.active, true);
      assert.equal(seen.client_id, owner.id);
      assert.equal(seen.sub, tokens.claims()!.sub);
    }
  });

  it('a client credentials token: the same rule', async () => {
    const owner = await api(false);
    const ownerRp = await relyingParty(server(), owner);
    const { access_token: token } = await oidc.clientCredentialsGrant(ownerRp, { scope: 'read' });
    assert.equal((await oidc.tokenIntrospection(ownerRp, token)).active, true);
    assert.deepEqual(await oidc.tokenIntrospection(await relyingParty(server(), await api(false)), token), { active: false });
    assert.equal((await oidc.tokenIntrospection(await relyingParty(server(), await api(true)), token)).active, true);
  });

  it('the admin API registers a resource server, confidential only', async () => {
    const created = await admin.post('/idp/clients', { name: 'Orders API', grant_types: ['client_credentials'], scopes: ['read'], resource_server: true });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.data.resource_server, true);
    assert.equal((await admin.get(`/idp/clients/${created.body.data.id}`)).body.data.resource_server, true);
    const plain = await admin.post('/idp/clients', { name: 'Wiki', redirect_uris: ['https://wiki.example.com/cb'] });
    assert.equal(plain.body.data.resource_server, false);

    const rs = await relyingParty(server(), { id: created.body.data.id, secret: created.body.meta.client_secret });
    const owner = await api(false);
    const { access_token: token } = await oidc.clientCredentialsGrant(await relyingParty(server(), owner), { scope: 'read' });
    assert.equal((await oidc.tokenIntrospection(rs, token)).active, true);

    const refused = await admin.post('/idp/clients', { name: 'SPA', type: 'public', redirect_uris: ['https://spa.example.com/cb'], resource_server: true });
    assertAdminError(refused, 400, 'invalid', 'resource_server');
    assertAdminError(await admin.post('/idp/clients', { name: 'API', grant_types: ['client_credentials'], resource_server: 'yes' }), 400, 'invalid');
  });
});

describe('idp clients CLI: --resource-server [sqlite]', () => {
  const databaseUrl = migratedDatabaseUrl('sqlite');

  it('marks a client as a resource server; a public one is refused', async () => {
    const out = await cliJson(databaseUrl(), ['idp', 'clients', 'create', '--name', 'Orders API', '--grant-type', 'client_credentials', '--scope', 'orders.read', '--resource-server']);
    assert.equal(out.client.resource_server, true);
    const plain = await cliJson(databaseUrl(), ['idp', 'clients', 'create', '--name', 'Wiki', '--redirect-uri', 'https://wiki.example.com/cb']);
    assert.equal(plain.client.resource_server, false);
    const db = openDatabase(databaseUrl());
    try {
      assert.equal((await findIdpClient(db, out.client.id))?.resourceServer, true);
      assert.equal((await findIdpClient(db, plain.client.id))?.resourceServer, false);
    } finally {
      await closeDatabase(db);
    }
    await cliError(databaseUrl(), ['idp', 'clients', 'create', '--name', 'SPA', '--type', 'public', '--redirect-uri', 'http://127.0.0.1/cb', '--resource-server'], 'invalid');
  });
});
