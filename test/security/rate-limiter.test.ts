import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import { parseRateLimits, type RateLimitConfig } from '../../src/config/rate-limits.js';
import { RateLimiter, type RateLimitResult } from '../../src/security/rate-limiter.js';
import { describeUnlessSkipped } from '../support/suites.js';
import { DependencyUnavailable } from '../../src/kernel/unavailable.js';

const CONFIG = parseRateLimits(
  JSON.stringify({
    login: '3/m/ip',
    login_failed: '3/m/ip,2/m/key',
    signup: '5/m/ip',
    change_password: '2/m/user',
    confirm_email: '1/1s/key',
    reset_password: false,
  }),
) as RateLimitConfig;

const REDIS_PORT = 6379;

type MakeLimiter = (config?: RateLimitConfig | false) => RateLimiter;

function okCount(results: RateLimitResult[]): number {
  return results.filter((result) => result.ok).length;
}

// The same behaviour is expected of every store.
function limiterBehaviour(makeLimiter: MakeLimiter): void {
  test('lets the amount through, then says when to retry', async () => {
    const limiter = makeLimiter();
    const subject = { ip: '192.0.2.1' };
    for (let i = 0; i < 3; i++) assert.deepEqual(await limiter.consume('login', subject), { ok: true });
    const refused = await limiter.consume('login', subject);
    assert.equal(refused.ok, false);
    assert.ok(!refused.ok && refused.retryAfterSeconds > 0 && refused.retryAfterSeconds <= 60);
  });

  test('counts several points at once and refuses non-positive points', async () => {
    const limiter = makeLimiter();
    assert.equal((await limiter.consume('login', { ip: '192.0.2.1' }, 3)).ok, true);
    assert.equal((await limiter.consume('login', { ip: '192.0.2.1' })).ok, false);
    await assert.rejects(limiter.consume('login', { ip: '192.0.2.1' }, 0), RangeError);
  });

  test('keeps ips, keys and actions apart', async () => {
    const limiter = makeLimiter();
    for (let i = 0; i < 3; i++) await limiter.consume('login', { ip: '192.0.2.1' });
    assert.equal((await limiter.consume('login', { ip: '192.0.2.1' })).ok, false);
    assert.equal((await limiter.consume('login', { ip: '192.0.2.2' })).ok, true);
    assert.equal((await limiter.consume('signup', { ip: '192.0.2.1' })).ok, true);

    await limiter.consume('login_failed', { ip: '192.0.2.1', key: 'a@example.com' });
    await limiter.consume('login_failed', { ip: '192.0.2.2', key: 'a@example.com' });
    assert.equal((await limiter.consume('login_failed', { ip: '192.0.2.3', key: 'b@example.com' })).ok, true);
  });

  test('normalises keys: case and surrounding spaces do not make a new counter', async () => {
    const limiter = makeLimiter();
    await limiter.consume('login_failed', { ip: '192.0.2.1', key: 'a@example.com' });
    await limiter.consume('login_failed', { ip: '192.0.2.2', key: ' A@Example.COM ' });
    assert.equal((await limiter.consume('login_failed', { ip: '192.0.2.3', key: 'a@EXAMPLE.com' })).ok, false);
  });

  test('skips key rules when no key is given', async () => {
    const limiter = makeLimiter();
    for (let i = 0; i < 2; i++) await limiter.consume('confirm_email', { ip: '192.0.2.1', key: null });
    assert.equal((await limiter.consume('confirm_email', { ip: '192.0.2.1' })).ok, true);
  });

  test('counts per user, or per ip when anonymous', async () => {
    const limiter = makeLimiter();
    for (let i = 0; i < 2; i++) await limiter.consume('change_password', { ip: `192.0.2.${i}`, userId: 7 });
    assert.equal((await limiter.consume('change_password', { ip: '192.0.2.9', userId: '7' })).ok, false);
    assert.equal((await limiter.consume('change_password', { ip: '192.0.2.9', userId: 8 })).ok, true);

    for (let i = 0; i < 2; i++) await limiter.consume('change_password', { ip: '192.0.2.50', userId: null });
    assert.equal((await limiter.consume('change_password', { ip: '192.0.2.50' })).ok, false);
    assert.equal((await limiter.consume('change_password', { ip: '192.0.2.51' })).ok, true);
  });

  test('a burst of 50 parallel consumes against an amount of 5 lets exactly 5 through', async () => {
    const limiter = makeLimiter();
    const results = await Promise.all(
      Array.from({ length: 50 }, () => limiter.consume('signup', { ip: '198.51.100.1' })),
    );
    assert.equal(okCount(results), 5);
  });

  test('reward gives one point back to every rule', async () => {
    const limiter = makeLimiter();
    const subject = { ip: '192.0.2.1', key: 'a@example.com' };
    for (let i = 0; i < 2; i++) await limiter.consume('login_failed', subject);
    await limiter.reward('login_failed', subject);
    assert.equal((await limiter.consume('login_failed', subject)).ok, true);
    assert.equal((await limiter.consume('login_failed', subject)).ok, false);
  });

  test('reward without spent points does not bank extra attempts', async () => {
    const limiter = makeLimiter();
    const subject = { ip: '192.0.2.1' };
    for (let i = 0; i < 3; i++) await limiter.reward('login', subject);
    await limiter.consume('login', subject);
    for (let i = 0; i < 3; i++) await limiter.reward('login', subject);
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await limiter.consume('login', subject));
    assert.equal(okCount(results), 3);
  });

  test('clear forgets the key counters of an action but keeps the per-ip ones', async () => {
    const limiter = makeLimiter();
    await limiter.consume('login_failed', { ip: '192.0.2.1', key: 'a@example.com' });
    await limiter.consume('login_failed', { ip: '192.0.2.1', key: 'a@example.com' });
    assert.equal((await limiter.consume('login_failed', { ip: '192.0.2.2', key: 'a@example.com' })).ok, false);

    await limiter.clear('login_failed', { ip: '192.0.2.2', key: 'A@example.com' });
    assert.equal((await limiter.consume('login_failed', { ip: '192.0.2.2', key: 'a@example.com' })).ok, true);
    // 192.0.2.1 had spent 2 of 3 before the clear.
    assert.equal((await limiter.consume('login_failed', { ip: '192.0.2.1', key: 'b@example.com' })).ok, true);
    assert.equal((await limiter.consume('login_failed', { ip: '192.0.2.1', key: 'c@example.com' })).ok, false);
  });

  test('clear forgets user counters, not the ip fallback', async () => {
    const limiter = makeLimiter();
    for (let i = 0; i < 2; i++) await limiter.consume('change_password', { ip: '192.0.2.1', userId: 7 });
    await limiter.clear('change_password', { ip: '192.0.2.1', userId: 7 });
    assert.equal((await limiter.consume('change_password', { ip: '192.0.2.1', userId: 7 })).ok, true);

    // Anonymous use of a per-user rule counts per ip, and ip counters are never cleared.
    for (let i = 0; i < 2; i++) await limiter.consume('change_password', { ip: '192.0.2.2' });
    await limiter.clear('change_password', { ip: '192.0.2.2' });
    assert.equal((await limiter.consume('change_password', { ip: '192.0.2.2' })).ok, false);
  });

  test('key spaces count apart: a typed identifier never reaches a second-factor counter', async () => {
    const limiter = makeLimiter();
    for (let i = 0; i < 2; i++) await limiter.consume('login_failed', { ip: '192.0.2.1', key: '42' });
    assert.equal((await limiter.consume('login_failed', { ip: '192.0.2.2', key: '42' })).ok, false);
    assert.equal((await limiter.consume('login_failed', { ip: '192.0.2.3', key: '42', keySpace: 'second_factor' })).ok, true);
  });

  test('guarded: a failed check keeps its point, a success and a check that threw give it back', async () => {
    const limiter = makeLimiter();
    const subject = { ip: '192.0.2.1', key: 'a@example.com' };
    const outage = new DependencyUnavailable('database', 'not answering');
    for (let i = 0; i < 5; i++) {
      await assert.rejects(limiter.guarded('login_failed', subject, () => Promise.reject(outage)), outage);
    }
    assert.deepEqual(await limiter.guarded('login_failed', subject, async () => ({ succeeded: false, value: 'wrong' })), { ok: true, succeeded: false, value: 'wrong' });
    assert.equal((await limiter.guarded('login_failed', subject, async () => ({ succeeded: true, value: 'right' }))).ok, true);
    // The success cleared the key's count: two failures fit again, the third is refused.
    for (let i = 0; i < 2; i++) assert.equal((await limiter.guarded('login_failed', subject, async () => ({ succeeded: false, value: null }))).ok, true);
    assert.equal((await limiter.guarded('login_failed', subject, async () => ({ succeeded: true, value: null }))).ok, false);
  });

  test('guarded: a reservation refused for attempts still in flight waits for them instead of failing', async () => {
    const limiter = makeLimiter();
    const subject = { ip: '192.0.2.1', key: 'b@example.com' };
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const slow = [0, 1].map(() => limiter.guarded('login_failed', subject, async () => (await held, { succeeded: true, value: null })));
    let thirdDone = false;
    const third = limiter.guarded('login_failed', subject, async () => ({ succeeded: true, value: null })).finally(() => (thirdDone = true));
    // The third cannot pass while both points are held; it has not been refused either.
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(thirdDone, false);
    release();
    assert.deepEqual((await Promise.all([...slow, third])).map((r) => r.ok), [true, true, true]);
  });

  test('a disabled action, or disabled rate limiting, always passes', async () => {
    const actionOff = makeLimiter();
    const allOff = makeLimiter(false);
    for (let i = 0; i < 10; i++) {
      assert.equal((await actionOff.consume('reset_password', { ip: '192.0.2.1', key: 'a@example.com' })).ok, true);
      assert.equal((await allOff.consume('login', { ip: '192.0.2.1' })).ok, true);
    }
    await allOff.reward('login', { ip: '192.0.2.1' });
    await allOff.clear('login', { ip: '192.0.2.1' });
  });
}

describe('RateLimiter with the memory store', () => {
  limiterBehaviour((config = CONFIG) => new RateLimiter(config, { kind: 'memory' }));

  test('a window reopens once its period is over', async (t) => {
    t.mock.timers.enable({ apis: ['Date', 'setTimeout'], now: 1_000_000 });
    const limiter = new RateLimiter(CONFIG, { kind: 'memory' });
    const subject = { ip: '192.0.2.1', key: 'a@example.com' };
    assert.equal((await limiter.consume('confirm_email', subject)).ok, true);
    t.mock.timers.tick(500);
    assert.deepEqual(await limiter.consume('confirm_email', subject), { ok: false, retryAfterSeconds: 1 });
    t.mock.timers.tick(500);
    assert.equal((await limiter.consume('confirm_email', subject)).ok, true);
  });
});

async function connectRedis(): Promise<Redis | null> {
  const client = new Redis({ host: '127.0.0.1', port: REDIS_PORT, lazyConnect: true, retryStrategy: () => null });
  try {
    await client.connect();
    return client;
  } catch {
    client.disconnect();
    return null;
  }
}

const redis = await connectRedis();
// CI must exercise the shared store; a developer machine without Redis may skip it.
const mustRunRedis = process.env.CI === 'true';
const runPrefix = `rl-test-${randomUUID()}`;
let limiterCount = 0;

describeUnlessSkipped(
  'RateLimiter with the redis store',
  redis === null && !mustRunRedis ? `Redis unreachable at 127.0.0.1:${REDIS_PORT}; set CI=true to fail instead` : undefined,
  () => {
    const clients: Redis[] = [];

    before(async () => {
      if (redis === null) throw new Error(`Redis unreachable at 127.0.0.1:${REDIS_PORT} and CI=true`);
      clients.push(redis);
    });

    after(async () => {
      if (redis === null) return;
      const keys = await redis.keys(`${runPrefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      for (const client of clients) client.disconnect();
    });

    limiterBehaviour(
      (config = CONFIG) => new RateLimiter(config, { kind: 'redis', client: redis!, prefix: `${runPrefix}-${limiterCount++}` }),
    );

    test('two instances on separate connections share counters, atomically', async () => {
      const other = await connectRedis();
      assert.ok(other, 'second Redis connection');
      clients.push(other);
      const prefix = `${runPrefix}-shared`;
      const first = new RateLimiter(CONFIG, { kind: 'redis', client: redis!, prefix });
      const second = new RateLimiter(CONFIG, { kind: 'redis', client: other, prefix });
      const subject = { ip: '198.51.100.7' };
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? first : second).consume('signup', subject)),
      );
      assert.equal(okCount(results), 5);

      await first.clear('login_failed', { ip: '198.51.100.7', key: 'x@example.com' });
      await first.consume('login_failed', { ip: '198.51.100.7', key: 'x@example.com' });
      await second.consume('login_failed', { ip: '198.51.100.8', key: 'x@example.com' });
      assert.equal((await first.consume('login_failed', { ip: '198.51.100.9', key: 'x@example.com' })).ok, false);
      await second.clear('login_failed', { ip: '198.51.100.9', key: 'x@example.com' });
      assert.equal((await first.consume('login_failed', { ip: '198.51.100.9', key: 'x@example.com' })).ok, true);
    });

    test('keys are namespaced per action and rule, and hold no email in clear', async () => {
      const prefix = `${runPrefix}-keys`;
      const limiter = new RateLimiter(CONFIG, { kind: 'redis', client: redis!, prefix });
      await limiter.consume('login_failed', { ip: '192.0.2.1', key: 'secret@example.com' });
      const keys = (await redis!.keys(`${prefix}:*`)).sort();
      assert.equal(keys.length, 2);
      assert.match(keys[0]!, new RegExp(`^${prefix}:login_failed:ip:3/60s:[0-9a-f]{32}$`));
      assert.match(keys[1]!, new RegExp(`^${prefix}:login_failed:key:2/60s:[0-9a-f]{32}$`));
      assert.ok(keys.every((key) => !key.includes('secret') && !key.includes('192.0.2.1')));
    });

    test('a window reopens once its period is over', async () => {
      const limiter = new RateLimiter(CONFIG, { kind: 'redis', client: redis!, prefix: `${runPrefix}-expiry` });
      const subject = { ip: '192.0.2.1', key: 'a@example.com' };
      assert.equal((await limiter.consume('confirm_email', subject)).ok, true);
      assert.deepEqual(await limiter.consume('confirm_email', subject), { ok: false, retryAfterSeconds: 1 });
      // Redis keeps its own clock, so this one test has to wait the period out.
      await sleep(1050);
      assert.equal((await limiter.consume('confirm_email', subject)).ok, true);
    });
  },
);

test('with the redis store, a store outage rejects instead of letting requests through', async () => {
  const down = new Redis({ host: '127.0.0.1', port: 1, lazyConnect: true, retryStrategy: () => null });
  try {
    const limiter = new RateLimiter(CONFIG, { kind: 'redis', client: down });
    await assert.rejects(limiter.consume('login', { ip: '192.0.2.1' }), (error: unknown) => error instanceof DependencyUnavailable && error.dependency === 'redis');
  } finally {
    down.disconnect();
  }
});
