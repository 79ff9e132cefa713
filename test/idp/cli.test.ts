import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDatabaseUrl } from '../support/databases.js';
import { closeDatabase, openDatabase } from '../../src/store/db.js';
import { findIdpClient } from '../../src/store/idp-clients.js';
import { clientSecretMatches } from '../../src/idp/client-secrets.js';
import { cliError, cliJson } from '../cli/support.js';

// `headless-auth idp clients ...`: a secret is printed once and only its
// hash is stored; rotation replaces it; the client model's rules hold.

describe('idp clients CLI [sqlite]', () => {
  const databaseUrl = migratedDatabaseUrl('sqlite');

  async function stored(id: string) {
    const db = openDatabase(databaseUrl());
    try {
      return await findIdpClient(db, id);
    } finally {
      await closeDatabase(db);
    }
  }

  it('creates a confidential client, shows its secret once and stores a hash', async () => {
    const out = await cliJson(databaseUrl(), ['idp', 'clients', 'create', '--name', 'Wiki', '--redirect-uri', 'https://wiki.example.com/cb', '--scope', 'openid', '--scope', 'email', '--grant-type', 'authorization_code', '--grant-type', 'refresh_token']);
    assert.equal(out.client.type, 'confidential');
    assert.match(out.client.id, /^[0-9a-f]{32}$/);
    assert.deepEqual(out.client.scopes, ['openid', 'email']);
    assert.equal(typeof out.client_secret, 'string');
    const row = await stored(out.client.id);
    assert.ok(row?.secretHash && !row.secretHash.includes(out.client_secret));
    assert.equal(await clientSecretMatches(out.client_secret, row!.secretHash), true);

    const list = await cliJson(databaseUrl(), ['idp', 'clients', 'list']);
    const listed = list.clients.find((c: { id: string }) => c.id === out.client.id);
    assert.ok(listed);
    assert.equal('client_secret' in listed, false);

    const rotated = await cliJson(databaseUrl(), ['idp', 'clients', 'rotate-secret', out.client.id]);
    assert.notEqual(rotated.client_secret, out.client_secret);
    const after = await stored(out.client.id);
    assert.equal(await clientSecretMatches(out.client_secret, after!.secretHash), false);
    assert.equal(await clientSecretMatches(rotated.client_secret, after!.secretHash), true);

    await cliJson(databaseUrl(), ['idp', 'clients', 'delete', out.client.id]);
    assert.equal(await stored(out.client.id), null);
    await cliError(databaseUrl(), ['idp', 'clients', 'delete', out.client.id], 'not_found');
  });

  it('a public client has no secret and cannot rotate one', async () => {
    const out = await cliJson(databaseUrl(), ['idp', 'clients', 'create', '--name', 'CLI', '--type', 'public', '--id', 'cli-app', '--redirect-uri', 'http://127.0.0.1/cb']);
    assert.equal(out.client_secret, null);
    await cliError(databaseUrl(), ['idp', 'clients', 'rotate-secret', 'cli-app'], 'public_client');
    await cliError(databaseUrl(), ['idp', 'clients', 'create', '--name', 'again', '--id', 'cli-app', '--redirect-uri', 'http://127.0.0.1/cb'], 'exists');
  });

  it('refuses what the client model refuses', async () => {
    await cliError(databaseUrl(), ['idp', 'clients', 'create', '--name', 'x', '--redirect-uri', 'https://*.example.com/cb'], 'invalid');
    await cliError(databaseUrl(), ['idp', 'clients', 'create', '--name', 'x', '--allow-uri-wildcards', '--redirect-uri', 'https://example.com/*/cb'], 'invalid');
    await cliError(databaseUrl(), ['idp', 'clients', 'create', '--name', 'x'], 'invalid');
    await cliError(databaseUrl(), ['idp', 'clients', 'create', '--name', 'x', '--grant-type', 'password'], 'invalid');
    await cliError(databaseUrl(), ['idp', 'clients', 'create', '--name', 'x', '--redirect-uri', 'https://a.example/cb', '--scope', 'openid', '--default-scope', 'email'], 'invalid');
    const wild = await cliJson(databaseUrl(), ['idp', 'clients', 'create', '--name', 'x', '--allow-uri-wildcards', '--redirect-uri', 'https://*.example.com/cb']);
    assert.equal(wild.client.allow_uri_wildcards, true);
  });
});
