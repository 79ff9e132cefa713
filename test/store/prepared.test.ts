import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeDatabase, migrateToLatest, openDatabase, writeVersion, type Conn, type Db } from '../../src/store/db.js';
import { prepared, preparedRows } from '../../src/store/prepared.js';

describe('prepared statements', () => {
  let dir: string;
  let db: Db;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'prepared-'));
    db = openDatabase(`sqlite:${join(dir, 'db.sqlite3')}`);
    await migrateToLatest(db);
  });
  after(async () => {
    await closeDatabase(db);
    rmSync(dir, { recursive: true, force: true });
  });

  const insertUser = prepared((conn: Conn, username: string, now: number) =>
    conn.insertInto('users').values({ username, username_lower: username, password_hash: null, is_active: 1, password_changed_at: now, created_at: now }).returning(['id', 'username', 'created_at']),
  );
  const userNamed = prepared((conn: Conn, username: string) => conn.selectFrom('users').select(['id', 'username']).where('username_lower', '=', username));

  it('runs with the values of each call, not those it was compiled with', async () => {
    const [first] = await insertUser(db, 'first', 1000);
    const [second] = await insertUser(db, 'second', 2000);
    assert.deepEqual([first!.username, first!.created_at], ['first', 1000]);
    assert.deepEqual([second!.username, second!.created_at], ['second', 2000]);
    assert.equal((await userNamed(db, 'second'))[0]?.id, second!.id);
    assert.deepEqual(await userNamed(db, 'nobody'), []);
  });

  it('counts its writes as writes of this process, and its reads not', async () => {
    const before = writeVersion(db);
    await userNamed(db, 'first');
    assert.equal(writeVersion(db), before);
    await insertUser(db, 'third', 3000);
    assert.equal(writeVersion(db), before + 1);
  });

  it('runs inside a transaction and sees its uncommitted rows', async () => {
    await db.transaction().execute(async (tx) => {
      await insertUser(tx, 'in-tx', 4000);
      assert.equal((await userNamed(tx, 'in-tx')).length, 1);
    });
  });

  it('refuses a build that computes with an argument instead of passing it on', async () => {
    const lowered = prepared((conn: Conn, username: string) => conn.selectFrom('users').select('id').where('username_lower', '=', String(username).toLowerCase()));
    await assert.rejects(lowered(db, 'First'), /every argument must be used as a value/);
  });

  const insertUsers = preparedRows<{ username: string; username_lower: string; created_at: number }>(['username', 'username_lower', 'created_at'], (conn, rows) =>
    conn.insertInto('users').values(rows.map((row) => ({ ...row, password_hash: null, is_active: 1, password_changed_at: 0 }))),
  );
  const named = (prefix: string) => db.selectFrom('users').select(['username', 'created_at']).where('username', 'like', `${prefix}%`).orderBy('username').execute();

  it('writes batches of each size with their own rows, and counts each as a write', async () => {
    await insertUsers(db, [{ username: 'rows-a1', username_lower: 'rows-a1', created_at: 1 }]);
    await insertUsers(db, [
      { username: 'rows-b1', username_lower: 'rows-b1', created_at: 2 },
      { username: 'rows-b2', username_lower: 'rows-b2', created_at: 3 },
    ]);
    // The same sizes again: the statements compiled for the first batches, with these values.
    const before = writeVersion(db);
    await insertUsers(db, [{ username: 'rows-c1', username_lower: 'rows-c1', created_at: 4 }]);
    await insertUsers(db, [
      { username: 'rows-d1', username_lower: 'rows-d1', created_at: 5 },
      { username: 'rows-d2', username_lower: 'rows-d2', created_at: 6 },
    ]);
    await insertUsers(db, []);
    assert.deepEqual(
      (await named('rows-')).map((row) => [row.username, row.created_at]),
      [
        ['rows-a1', 1],
        ['rows-b1', 2],
        ['rows-b2', 3],
        ['rows-c1', 4],
        ['rows-d1', 5],
        ['rows-d2', 6],
      ],
    );
    assert.equal(writeVersion(db), before + 2);
  });

  it('refuses a build that computes with a value of a row instead of passing it on', async () => {
    const computed = preparedRows<{ username: string; created_at: number }>(['username', 'created_at'], (conn, rows) =>
      conn.insertInto('users').values(rows.map((row) => ({ username: String(row.username).toLowerCase(), username_lower: String(row.username).toLowerCase(), password_hash: null, is_active: 1, password_changed_at: 0, created_at: row.created_at }))),
    );
    await assert.rejects(computed(db, [{ username: 'Rows-X', created_at: 7 }]), /every argument must be used as a value/);
  });
});
