import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.js';
import { closeDatabase, openDatabase } from '../../src/store/db.js';

// On SQLite a session read is reused only while no connection has committed
// since. A change made by another process must show on the very next request.
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
