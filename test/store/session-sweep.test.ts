import { it } from 'node:test';
import assert from 'node:assert/strict';
import { deleteExpiredSessions } from '../../src/store/sessions.js';
import { sessionKeyDigest } from '../../src/security/secrets.js';
import { databaseKinds, migratedDatabase } from '../support/databases.js';
import { describeUnlessSkipped } from '../support/suites.js';

// The sweeper finds expired sessions by walking ids a slice at a time (there
// is no index on expires_at): every slice must be visited, the first and the
// last included, and live sessions left alone.

for (const { kind, skip } of await databaseKinds()) {
  describeUnlessSkipped(`sweeping expired sessions [${kind}]`, skip, () => {
    const connection = migratedDatabase(kind);

    it('deletes the expired sessions of every slice of ids and keeps the live ones', async () => {
      const db = connection();
      const now = 1_800_000_000_000;
      const user = await db.insertInto('users').values({ username: null, username_lower: null, password_hash: null, created_at: now, password_changed_at: now }).returning('id').executeTakeFirstOrThrow();
      // Ids far apart, so that they fall in different slices.
      const expired = [3, 9_999, 10_000, 45_001];
      const live = [4, 10_001, 45_000, 60_002];
      for (const id of [...expired, ...live]) {
        await db
          .insertInto('sessions')
          .values({ id, key_hash: sessionKeyDigest(`sweep-${id}`), user_id: user.id, methods: '[]', flow: null, flow_attempts: 0, created_at: now, last_seen_at: now, expires_at: expired.includes(id) ? now : now + 1, ip: '', user_agent: '' })
          .execute();
      }
      assert.equal(await deleteExpiredSessions(db, now), expired.length);
      const left = await db.selectFrom('sessions').select('id').orderBy('id').execute();
      assert.deepEqual(left.map((r) => r.id), live);
      assert.equal(await deleteExpiredSessions(db, now), 0);
    });

    it('an empty table sweeps to nothing', async () => {
      const db = connection();
      await db.deleteFrom('sessions').execute();
      assert.equal(await deleteExpiredSessions(db, Date.now()), 0);
    });
  });
}
