import { it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase } from '../support/server.js';
import { uniqueEmail } from '../support/accounts.js';
import { cliError, cliJson, runCli } from './support.js';
import { listAuditEvents } from '../../src/store/audit-events.js';
import { hashSecret } from '../../src/security/secrets.js';

// `users set-admin <user> --setup-link`: the role and a one-time link to the
// console, printed once, stored only as a hash, replacing the user's earlier link.

describeEachDatabase('admin setup link (CLI)', {}, ({ server }) => {
  const db = () => server().app.deps.config.databaseUrl;
  const links = () => server().app.deps.db.selectFrom('admin_setup_links').selectAll().execute();

  it('grants the role and prints a link that works for a day, kept only as a hash', async () => {
    const email = uniqueEmail('setup');
    const user = await cliJson(db(), ['users', 'create', '--email', email, '--verified', '--no-password']);
    const before = Date.now();
    const made = await cliJson(db(), ['users', 'set-admin', email, '--setup-link', '--console-url', 'https://admin.example.com/']);
    assert.equal(made.user_id, user.id);
    assert.equal(made.is_admin, true);
    assert.equal(made.changed, true);
    const match = /^https:\/\/admin\.example\.com\/console#\/setup\?token=(\d+)\.([A-Za-z0-9_-]{43})$/.exec(made.setup_link);
    assert.ok(match, made.setup_link);
    const expires = Date.parse(made.expires_at);
    assert.ok(expires >= before + 86_400_000 - 1000 && expires <= Date.now() + 86_400_000, made.expires_at);
    assert.deepEqual(made.notes, []);
    const stored = (await links()).filter((l) => l.user_id === user.id);
    assert.deepEqual(stored.map((l) => [l.id, l.secret_hash]), [[Number(match[1]), hashSecret(match[2]!)]]);
    assert.ok(!JSON.stringify(stored).includes(match[2]!));

    // Again for an admin already: a new link, the earlier one gone.
    const again = await cliJson(db(), ['users', 'set-admin', email, '--setup-link', '--link-expires', '2h', '--console-url', 'https://admin.example.com/console']);
    assert.equal(again.changed, false);
    assert.notEqual(again.setup_link, made.setup_link);
    assert.ok(Date.parse(again.expires_at) <= Date.now() + 2 * 3_600_000);
    assert.equal((await links()).filter((l) => l.user_id === user.id).length, 1);

    const events = await listAuditEvents(server().app.deps.db, { userId: user.id, types: ['admin.granted', 'admin.setup_link_created'], limit: 5 });
    assert.deepEqual(events.map((e) => [e.type, (e.detail as any).actor]).reverse(), [['admin.granted', 'cli'], ['admin.setup_link_created', 'cli'], ['admin.setup_link_created', 'cli']]);
    const text = await runCli(db(), ['users', 'set-admin', email, '--setup-link', '--console-url', 'https://admin.example.com']);
    assert.equal(text.status, 0, text.stderr);
    assert.match(text.stdout, /shown only now/);
  });

  it('links to the admin listener by default, warns about an unverified address, and refuses a past expiry or no console', async () => {
    const email = uniqueEmail('setup');
    await cliJson(db(), ['users', 'create', '--email', email, '--no-password']);
    const made = await cliJson(db(), ['users', 'set-admin', email, '--setup-link'], { env: { ADMIN_PORT: '9876', ADMIN_HOST: '0.0.0.0' } });
    assert.match(made.setup_link, /^http:\/\/localhost:9876\/console#\/setup\?token=/);
    assert.equal(made.notes.length, 1);
    assert.match(made.notes[0], /unverified/);
    await cliError(db(), ['users', 'set-admin', email, '--setup-link', '--link-expires', '2001-01-01', '--console-url', 'https://a.example'], 'invalid');
    await cliError(db(), ['users', 'set-admin', email, '--setup-link'], 'config_error', { env: { ADMIN_PORT: '' } });
    await cliError(db(), ['users', 'set-admin', email, '--setup-link', '--console-url', 'ftp://x'], 'invalid');
  });
});
