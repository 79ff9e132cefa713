import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import SQLite from 'better-sqlite3';
import { startTestServer, type TestServer } from '../support/server.js';
import { PASSWORD, assertError, uniqueEmail } from '../support/accounts.js';

// Another process holding SQLite's write lock past busy_timeout is the
// embedded database's "not answering": a JSON 503 with Retry-After, not a
// 500, and the write goes through once the lock is released.
describe('SQLite locked by another process', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer('sqlite', { ACCOUNT_EMAIL_VERIFICATION: 'none' });
  });
  after(async () => {
    await server?.close();
  });

  it('answers 503 service_unavailable while the lock is held, and serves once it is released', async () => {
    const other = new SQLite(server.app.deps.config.databaseUrl.slice('sqlite:'.length));
    const email = uniqueEmail('busy');
    try {
      other.exec('BEGIN IMMEDIATE');
      const refused = await server.client('app').post('/auth/signup', { email, password: PASSWORD });
      assertError(refused, 503, 'service_unavailable');
      assert.ok(Number(refused.headers.get('retry-after')) >= 1);
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    assert.equal((await server.client('app').post('/auth/signup', { email, password: PASSWORD })).status, 200);
  });
});
