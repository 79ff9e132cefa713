import { it } from 'node:test';
import assert from 'node:assert/strict';
import { recordSessionUses } from '../../src/store/sessions.js';
import { sessionKeyDigest } from '../../src/security/secrets.js';
import { databaseKinds, migratedDatabase } from '../support/databases.js';
import { describeUnlessSkipped } from '../support/suites.js';

// One statement records the latest use of a whole batch of sessions, each
// with its own times, and where it was used from only for those that say.

for (const { kind, skip } of await databaseKinds()) {
  describeUnlessSkipped(`a batch of session touches [${kind}]`, skip, () => {
    const connection = migratedDatabase(kind);

    it('writes each session its own values and leaves the others alone', async () => {
      const db = connection();
      const t = 1_800_000_000_000;
      const user = await db.insertInto('users').values({ username: null, username_lower: null, password_hash: null, created_at: t, password_changed_at: t }).returning('id').executeTakeFirstOrThrow();
      const ids: number[] = [];
      for (let i = 0; i < 4; i++) {
        const row = await db
          .insertInto('sessions')
          .values({ key_hash: sessionKeyDigest(`touch-${i}`), user_id: user.id, methods: '[]', flow: null, flow_attempts: 0, created_at: t, last_seen_at: t, expires_at: t + 1000, ip: '10.0.0.1', user_agent: 'old agent' })
          .returning('id')
          .executeTakeFirstOrThrow();
        ids.push(row.id);
      }
      await recordSessionUses(
        db,
        new Map([
          [ids[0]!, { now: t + 10, expiresAt: t + 5000 }],
          [ids[1]!, { now: t + 20, expiresAt: t + 6000, client: { ip: '10.0.0.2', userAgent: 'new agent' } }],
          [ids[2]!, { now: t + 30, expiresAt: t + 7000 }],
        ]),
      );
      const rows = await db.selectFrom('sessions').select(['id', 'last_seen_at', 'expires_at', 'ip', 'user_agent']).orderBy('id').execute();
      assert.deepEqual(
        rows.map((r) => [r.last_seen_at - t, r.expires_at - t, r.ip, r.user_agent]),
        [
          [10, 5000, '10.0.0.1', 'old agent'],
          [20, 6000, '10.0.0.2', 'new agent'],
          [30, 7000, '10.0.0.1', 'old agent'],
          [0, 1000, '10.0.0.1', 'old agent'],
        ],
      );
    });
  });
}
