import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeDatabase, migrateToLatest, openDatabase, type Db } from '../../src/store/db.js';
import { findLiveSession, insertSession } from '../../src/store/sessions.js';
import { sessionKeyDigest } from '../../src/security/secrets.js';

// On SQLite a session read is reused only while no connection has committed
// since. A change made by another process must show on the next request.
describe('SQLite session snapshots', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer('sqlite', { ACCOUNT_EMAIL_VERIFICATION: 'none' });
  });
  after(async () => server?.close());

  async function otherProcess(change: (db: ReturnType<typeof openDatabase>) => Promise<unknown>): Promise<void> {
    const db = openDatabase(server.app.deps.config.databaseUrl);
    try {
      await change(db);
    } finally {
      await closeDatabase(db);
    }
  }

  it('a session deleted by another connection is gone at once', async () => {
    const app = server.client('app');
    const signup = await app.post('/auth/signup', { email: 'snap@example.com', password: 'a long secret phrase' });
    assert.equal(signup.status, 200);
    assert.equal((await app.get('/auth/session')).status, 200);
    assert.equal((await app.get('/auth/session')).status, 200);
    await otherProcess((db) => db.deleteFrom('sessions').where('user_id', '=', signup.body.data.user.id).execute());
    assert.equal((await app.get('/auth/session')).status, 410);
  });

  it('a user changed by another connection shows at once', async () => {
    const app = server.client('app');
    const signup = await app.post('/auth/signup', { email: 'snap2@example.com', password: 'a long secret phrase' });
    assert.equal((await app.get('/auth/session')).body.data.user.email, 'snap2@example.com');
    await otherProcess((db) => db.updateTable('email_addresses').set({ email: 'renamed@example.com', email_lower: 'renamed@example.com' }).where('user_id', '=', signup.body.data.user.id).execute());
    assert.equal((await app.get('/auth/session')).body.data.user.email, 'renamed@example.com');
  });

  it('an expired session is not served from a snapshot', async () => {
    const app = server.client('app');
    await app.post('/auth/signup', { email: 'snap3@example.com', password: 'a long secret phrase' });
    assert.equal((await app.get('/auth/session')).status, 200);
    server.clock.advance(server.app.deps.config.session.cookieAge * 1000 + 1000);
    assert.equal((await app.get('/auth/session')).status, 410);
  });
});

// One data_version reading serves every lookup of an event-loop turn; these
// run inside a single turn (promises only) and say so.
describe('SQLite data_version readings within one event-loop turn', () => {
  let dir: string;
  let db: Db;
  let other: Db;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'data-version-'));
    db = openDatabase(`sqlite:${join(dir, 'db.sqlite3')}`);
    await migrateToLatest(db);
    other = openDatabase(`sqlite:${join(dir, 'db.sqlite3')}`);
  });
  after(async () => {
    await closeDatabase(other);
    await closeDatabase(db);
    rmSync(dir, { recursive: true, force: true });
  });

  async function newSession(key: string): Promise<number> {
    const now = Date.now();
    const session = await insertSession(db, { keyDigest: sessionKeyDigest(key), userId: null, methods: [], flow: null, now, expiresAt: now + 60_000, ip: '127.0.0.1', userAgent: 'test' });
    return session.id;
  }

  /** Runs `body` and fails if the event loop moved to its next turn meanwhile. */
  async function withinOneTurn(body: () => Promise<void>): Promise<void> {
    let turnEnded = false;
    setImmediate(() => (turnEnded = true));
    await body();
    assert.equal(turnEnded, false, 'the steps spanned more than one event-loop turn');
  }

  it("this process's own write shows on the next lookup of the same turn", async () => {
    const id = await newSession('own-write-key');
    await new Promise(setImmediate);
    await withinOneTurn(async () => {
      assert.notEqual(await findLiveSession(db, 'own-write-key', Date.now()), null);
      await db.deleteFrom('sessions').where('id', '=', id).execute();
      assert.equal(await findLiveSession(db, 'own-write-key', Date.now()), null);
    });
  });

  it("another connection's commit shows from the next turn on", async () => {
    const id = await newSession('other-write-key');
    await new Promise(setImmediate);
    await withinOneTurn(async () => {
      assert.notEqual(await findLiveSession(db, 'other-write-key', Date.now()), null);
      await other.deleteFrom('sessions').where('id', '=', id).execute();
      // The turn's reading still stands: the snapshot is served.
      assert.notEqual(await findLiveSession(db, 'other-write-key', Date.now()), null);
    });
    await new Promise(setImmediate);
    assert.equal(await findLiveSession(db, 'other-write-key', Date.now()), null);
  });
});
