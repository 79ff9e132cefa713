import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeDatabase, migrateToLatest, openDatabase, writeVersion, type Conn, type Db } from '../../src/store/db.js';
import { prepared } from '../../src/store/prepared.js';

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
});
