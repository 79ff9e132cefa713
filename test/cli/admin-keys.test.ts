import { it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase } from '../support/server.js';
import { PASSWORD, uniqueEmail } from '../support/accounts.js';
import { cliError, cliJson, runCli } from './support.js';
import { listAuditEvents } from '../../src/store/audit-events.js';
import { findAdminApiKeyByHash } from '../../src/store/admin-api-keys.js';
import { hashSecret } from '../../src/security/secrets.js';

// `admin-keys` (the admin API's keys) and `users set-admin` / `unset-admin`
// (the admin console's role), against a listening server's database.

describeEachDatabase('admin keys and role (CLI)', {}, ({ server }) => {
  const db = () => server().app.deps.config.databaseUrl;

  it('creates a key shown once and stored as a hash, lists, expires and revokes it', async () => {
    const made = await cliJson(db(), ['admin-keys', 'create', '--name', 'provisioning', '--scope', 'write', '--expires', '90d']);
    assert.match(made.key, /^hak_[A-Za-z0-9_-]{43}$/);
    assert.equal(made.scope, 'write');
    assert.equal(made.state, 'active');
    assert.ok(Date.parse(made.expires_at) > Date.now() + 89 * 86_400_000);
    const stored = await findAdminApiKeyByHash(server().app.deps.db, hashSecret(made.key));
    assert.equal(stored?.id, made.id);
    // Nowhere in the table is the key itself.
    const rows = await server().app.deps.db.selectFrom('admin_api_keys').selectAll().execute();
    assert.ok(!JSON.stringify(rows).includes(made.key.slice(4)));

    const listed = await cliJson(db(), ['admin-keys', 'list']);
    const entry = listed.keys.find((k: any) => k.id === made.id);
    assert.equal(entry.name, 'provisioning');
    assert.equal(entry.key, undefined);
    assert.equal(entry.prefix, made.key.slice(0, 12));

    const expired = await cliJson(db(), ['admin-keys', 'expire', String(made.id)]);
    assert.equal(expired.state, 'expired');
    assert.equal((await cliJson(db(), ['admin-keys', 'expire', String(made.id), '--never'])).state, 'active');
    const revoked = await cliJson(db(), ['admin-keys', 'revoke', String(made.id)]);
    assert.equal(revoked.state, 'revoked');
    assert.equal(revoked.changed, true);
    assert.equal((await cliJson(db(), ['admin-keys', 'revoke', String(made.id)])).changed, false);
    await cliError(db(), ['admin-keys', 'revoke', '999999'], 'not_found');

    const events = await listAuditEvents(server().app.deps.db, { types: ['admin_key.created', 'admin_key.revoked', 'admin_key.expiry_changed'], limit: 10 });
    assert.deepEqual(events.map((e) => e.type).reverse(), ['admin_key.created', 'admin_key.expiry_changed', 'admin_key.expiry_changed', 'admin_key.revoked']);
    assert.ok(events.every((e) => (e.detail as any).actor === 'cli' && (e.detail as any).key_id === made.id));
  });

  it('refuses a bad name, scope or expiry', async () => {
    await cliError(db(), ['admin-keys', 'create', '--name', ' '], 'required');
    await cliError(db(), ['admin-keys', 'create', '--name', 'x', '--scope', 'admin'], 'invalid');
    await cliError(db(), ['admin-keys', 'create', '--name', 'x', '--expires', '2001-01-01'], 'invalid');
    const bad = await runCli(db(), ['admin-keys', 'create', '--name', 'x', '--expires', 'tomorrow']);
    assert.equal(bad.status, 1);
  });

  it('gives and takes the admin role, with an event each', async () => {
    const email = uniqueEmail('admin');
    const user = await cliJson(db(), ['users', 'create', '--email', email, '--verified', '--password-stdin'], { stdin: `${PASSWORD}\n` });
    assert.equal(user.is_admin, false);
    assert.deepEqual(await cliJson(db(), ['users', 'set-admin', email]), { user_id: user.id, is_admin: true, changed: true });
    assert.deepEqual(await cliJson(db(), ['users', 'set-admin', email]), { user_id: user.id, is_admin: true, changed: false });
    assert.equal((await cliJson(db(), ['users', 'show', email])).is_admin, true);
    assert.deepEqual((await cliJson(db(), ['users', 'list', '--admins'])).users.map((u: any) => u.id), [user.id]);
    assert.deepEqual(await cliJson(db(), ['users', 'unset-admin', `id:${user.id}`]), { user_id: user.id, is_admin: false, changed: true });
    const events = await listAuditEvents(server().app.deps.db, { userId: user.id, types: ['admin.granted', 'admin.revoked'], limit: 10 });
    assert.deepEqual(events.map((e) => e.type), ['admin.revoked', 'admin.granted']);
    await cliError(db(), ['users', 'set-admin', 'nobody@example.com'], 'not_found');
  });
});
