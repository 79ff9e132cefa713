import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { ApiClient } from '../support/client.js';
import { createTestDatabase, type TestDatabase } from '../support/databases.js';
import { startServerProcess, type ServerProcess } from '../support/process-server.js';
import { REDIS_URL, serviceSkipReason } from '../support/services.js';
import { TEST_SECRET } from '../support/server.js';
import { describeUnlessSkipped } from '../support/suites.js';

// Several instances behind a load balancer: all state in PostgreSQL, counters
// in Redis. Two real processes must agree on sessions and on lockouts.
const skip = (await serviceSkipReason('PostgreSQL')) ?? (await serviceSkipReason('Redis'));

describeUnlessSkipped('two server processes on one PostgreSQL + Redis', skip, () => {
  let database: TestDatabase;
  let a: ServerProcess;
  let b: ServerProcess;
  const email = `multi-${randomBytes(4).toString('hex')}@example.com`;
  const password = 'a shared secret phrase';

  before(async () => {
    database = await createTestDatabase('postgres');
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL,
      SECRET_KEY: TEST_SECRET,
      ACCOUNT_EMAIL_VERIFICATION: 'none',
      ACCOUNT_RATE_LIMITS: JSON.stringify({ login_failed: '100/m/ip,3/300s/key' }),
    };
    // Started one after the other: the second finds the schema migrated.
    a = await startServerProcess(env);
    b = await startServerProcess(env);
  });
  after(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await database?.drop();
  });

  it('a session created on one process is valid on the other, and logout on either ends it', async () => {
    const onA = new ApiClient(a.baseUrl, 'app');
    const signup = await onA.post('/auth/signup', { email, password });
    assert.equal(signup.status, 200);
    const onB = new ApiClient(b.baseUrl, 'app');
    onB.sessionToken = onA.sessionToken;
    const me = await onB.get('/auth/session');
    assert.equal(me.status, 200);
    assert.equal(me.body.data.user.email, email);

    const logout = await onB.delete('/auth/session');
    assert.equal(logout.status, 401);
    const gone = await onA.get('/auth/session');
    assert.equal(gone.status, 410);
  });

  it('counts failed logins across both processes', async () => {
    const onA = new ApiClient(a.baseUrl, 'app');
    const onB = new ApiClient(b.baseUrl, 'app');
    for (const client of [onA, onB, onA]) {
      const wrong = await client.post('/auth/login', { email, password: 'not the password' });
      assert.equal(wrong.status, 400);
      assert.equal(wrong.body.errors[0].code, 'email_password_mismatch');
    }
    // The fourth attempt, on the other process and with the right password, is refused.
    const locked = await onB.post('/auth/login', { email, password });
    assert.equal(locked.status, 400);
    assert.equal(locked.body.errors[0].code, 'too_many_login_attempts');
    assert.equal(locked.body.errors[0].param, undefined);
  });
});
