import { it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase } from '../support/server.js';
import { hashSecret } from '../../src/security/secrets.js';
import { bearer, jwtEnv, signUp } from './support.js';

// 50 parallel refreshes of one refresh token: it rotates exactly once, and
// there is never a second, independent chain.

const PARALLEL = 50;

async function familyRows(db: any, refreshToken: string) {
  const { family_id } = await db.selectFrom('refresh_tokens').select('family_id').where('token_hash', '=', hashSecret(refreshToken)).executeTakeFirstOrThrow();
  return () => db.selectFrom('refresh_tokens').select(['id', 'used_at']).where('family_id', '=', family_id).execute() as Promise<Array<{ id: number; used_at: number | null }>>;
}

describeEachDatabase('parallel refresh', jwtEnv(), ({ server }) => {
  it('exactly one of 50 parallel refreshes succeeds; the rest are reuse and revoke the chain', async () => {
    const account = await signUp(server(), 'parallel');
    const rows = await familyRows(server().app.deps.db, account.refreshToken);
    const responses = await Promise.all(
      Array.from({ length: PARALLEL }, () => server().client('app').post('/tokens/refresh', { refresh_token: account.refreshToken })),
    );
    const ok = responses.filter((r) => r.status === 200);
    assert.equal(ok.length, 1);
    assert.equal(responses.filter((r) => r.status === 400).length, PARALLEL - 1);
    // The reuse revoked the family with its session: the one successor is dead too.
    assert.equal((await server().client('app').post('/tokens/refresh', { refresh_token: ok[0]!.body.data.refresh_token })).status, 400);
    assert.equal((await rows()).length, 0);
    assert.equal((await account.client.get('/auth/session')).status, 410);
  });
});

describeEachDatabase('parallel refresh with a grace window', jwtEnv({ HEADLESS_JWT_REFRESH_TOKEN_REUSE_GRACE: '30' }), ({ server }) => {
  it('all 50 parallel refreshes get the same successor: one chain', async () => {
    const account = await signUp(server(), 'parallel-grace');
    const rows = await familyRows(server().app.deps.db, account.refreshToken);
    const responses = await Promise.all(
      Array.from({ length: PARALLEL }, () => server().client('app').post('/tokens/refresh', { refresh_token: account.refreshToken })),
    );
    assert.deepEqual(responses.map((r) => r.status), Array(PARALLEL).fill(200));
    const successors = new Set(responses.map((r) => r.body.data.refresh_token));
    assert.equal(successors.size, 1);
    const chain = await rows();
    assert.equal(chain.length, 2, 'the presented token and its one successor');
    assert.equal(chain.filter((r) => r.used_at === null).length, 1);

    const [successor] = successors;
    const next = await server().client('app').post('/tokens/refresh', { refresh_token: successor });
    assert.equal(next.status, 200);
    assert.equal((await server().client('app').get('/auth/session', bearer(next.body.data.access_token))).status, 200);
  });
});
