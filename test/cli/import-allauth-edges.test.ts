import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase } from '../support/server.js';
import { createTestDatabase } from '../support/databases.js';
import { closeDatabase, migrateToLatest, openDatabase } from '../../src/store/db.js';
import { allauthCopy, cliError, cliJson, runCli, secretKeyFile, sqlTime, type AllauthCopy } from './support.js';

// What the import does when the data here or in the source is not simple:
// conflicts with accounts made here, sessions Django would no longer accept,
// another database under the same name, a custom user model's table.

describeEachDatabase('import from django-allauth: conflicts and sessions', {}, ({ server, kind }) => {
  let source: AllauthCopy;
  let key: ReturnType<typeof secretKeyFile>;
  let wrongKey: ReturnType<typeof secretKeyFile>;
  let target: string;
  const importArgs = (...more: string[]) => ['import', 'allauth', source.url, ...more];

  before(async () => {
    source = await allauthCopy(kind);
    key = secretKeyFile();
    wrongKey = secretKeyFile('not-the-key-that-signed-these-sessions');
    target = server().app.deps.config.databaseUrl;
  });
  after(async () => {
    await source?.drop();
    key?.remove();
    wrongKey?.remove();
  });

  it('a user whose address or username is taken here is not imported, and is named; the rest are', async () => {
    const carol = await cliJson(target, ['users', 'create', '--email', 'Carol@Example.net', '--username', 'someone', '--no-password']);
    const dave = await cliJson(target, ['users', 'create', '--email', 'dave@here.example', '--username', 'DAVE', '--no-password']);
    // Django's MD5PasswordHasher, which no default setup verifies: kept, counted, never a match.
    await source.exec("UPDATE auth_user SET password = 'md5$seasalt$7c4c3f1a1c5cd4d8d0b8c4ba5e9d7c47' WHERE username = 'kim'");
    // allauth lets bob (imported first) hold grace's verified address unverified; here it stays grace's.
    const no = kind === 'sqlite' ? '0' : 'false';
    await source.exec(`INSERT INTO account_emailaddress (id, email, verified, "primary", user_id) VALUES (100, 'grace@example.com', ${no}, ${no}, 2)`);
    const run = await runCli(target, ['--json', ...importArgs()]);
    assert.equal(run.status, 1, run.stdout + run.stderr);
    const summary = run.json;
    assert.deepEqual(summary.conflicts, [
      { source_user_id: 3, username: 'carol', reason: 'email_taken', value: 'carol@example.net', local_user_id: carol.id },
      { source_user_id: 4, username: 'dave', reason: 'username_taken', value: 'dave', local_user_id: dave.id },
    ]);
    assert.deepEqual(summary.rows.users, { imported: 11, already_imported: 0, skipped: {} });
    assert.deepEqual(summary.unverifiable_password_hashes, { md5: 1 });
    assert.equal(summary.password_hashes.unknown, 1);
    assert.deepEqual(summary.rows.email_addresses, { imported: 12, already_imported: 0, skipped: { user_not_imported: 1, verified_by_another_user: 1 } });
    // Without Django's key nothing proves a session genuine.
    assert.deepEqual(summary.rows.sessions, { imported: 0, already_imported: 0, skipped: { no_secret_key: 3 } });
    // Nothing half-made: the refused users left no row behind.
    const db = server().app.deps.db;
    assert.equal((await db.selectFrom('users').select('id').where('username', '=', 'carol').execute()).length, 0);

    await cliJson(target, ['users', 'delete', String(carol.id), '--yes']);
    await cliJson(target, ['users', 'delete', String(dave.id), '--yes']);
    const resolved = await cliJson(target, importArgs('--django-secret-key-file', wrongKey.path));
    assert.deepEqual(resolved.conflicts, []);
    assert.deepEqual(resolved.rows.users, { imported: 2, already_imported: 11, skipped: {} });
    assert.deepEqual(resolved.rows.email_addresses, { imported: 1, already_imported: 12, skipped: { verified_by_another_user: 1 } });
    const grace = await db.selectFrom('email_addresses as e').innerJoin('users as u', 'u.id', 'e.user_id').select(['u.username', 'e.verified']).where('e.email', '=', 'grace@example.com').execute();
    assert.deepEqual(grace, [{ username: 'grace', verified: 1 }]);
    assert.deepEqual(resolved.rows.sessions, { imported: 0, already_imported: 0, skipped: { bad_signature: 3 } });
  });

  it('a session stays behind when its user changed password or was disabled here since', async () => {
    await cliJson(target, ['users', 'set-password', 'alice', '--password-stdin'], { stdin: 'a new and long passphrase\n' });
    await cliJson(target, ['users', 'disable', 'root']);
    const summary = await cliJson(target, importArgs('--django-secret-key-file', key.path));
    assert.deepEqual(summary.rows.sessions, { imported: 0, already_imported: 0, skipped: { password_changed_here: 1, user_inactive: 1, not_logged_in: 1 } });
  });

  it('expired sessions are not considered', async () => {
    await source.exec(`UPDATE django_session SET expire_date = ${sqlTime(kind, Date.now() - 1000)}`);
    const summary = await cliJson(target, importArgs('--django-secret-key-file', key.path));
    assert.deepEqual(summary.rows.sessions, { imported: 0, already_imported: 0, skipped: {} });
  });

  it('refuses another database imported under the same name', async () => {
    await source.exec(`UPDATE auth_user SET date_joined = ${sqlTime(kind, Date.UTC(2020, 0, 1))} WHERE id = 1`);
    await cliError(target, importArgs(), 'source_mismatch');
    // Under a name of its own it is a separate source (and its users conflict with the first's).
    const other = await runCli(target, ['--json', ...importArgs('--source-name', 'second-site')]);
    assert.equal(other.status, 1);
    assert.equal(other.json.conflicts.length, 13);
  });

  it("reads a custom user model's table", async () => {
    const custom = await allauthCopy(kind);
    const fresh = await createTestDatabase(kind);
    const db = openDatabase(fresh.url);
    try {
      await migrateToLatest(db);
      await custom.exec('ALTER TABLE auth_user RENAME TO accounts_user');
      await cliError(fresh.url, ['import', 'allauth', custom.url], 'source_error');
      const summary = await cliJson(fresh.url, ['import', 'allauth', custom.url, '--user-table', 'accounts_user']);
      assert.deepEqual(summary.rows.users, { imported: 13, already_imported: 0, skipped: {} });
      assert.equal((await db.selectFrom('users').select('id').execute()).length, 13);
    } finally {
      await closeDatabase(db);
      await custom.drop();
      await fresh.drop();
    }
  });
});
