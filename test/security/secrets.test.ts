import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { randomKey } from '../../src/security/secrets.js';

describe('randomKey', () => {
  it('gives base64url keys of the asked size, also past the pool size', () => {
    for (const bytes of [18, 24, 32, 5000]) {
      const key = randomKey(bytes);
      assert.match(key, /^[A-Za-z0-9_-]+$/);
      assert.equal(Buffer.from(key, 'base64url').length, bytes);
    }
  });

  it('never repeats or hands out wiped bytes across many pool refills', () => {
    // Mixed sizes, so that draws straddle the refill boundary; 40 000 draws
    // of about 25 bytes go through the 4 KiB pool some 240 times.
    const sizes = [18, 24, 32, 7];
    const seen = new Set<string>();
    const counts = new Array<number>(256).fill(0);
    for (let i = 0; i < 40_000; i++) {
      const size = sizes[i % sizes.length]!;
      const key = randomKey(size);
      assert.ok(!seen.has(key), `repeated key ${key}`);
      seen.add(key);
      const bytes = Buffer.from(key, 'base64url');
      assert.equal(bytes.length, size);
      assert.ok(bytes.some((b) => b !== 0), 'an all-zero key: a wiped pool was reused');
      for (const b of bytes) counts[b]!++;
    }
    // About 810 000 bytes: every value turns up about 3 160 times, give or take
    // 56 (one standard deviation); the bounds are some eight of those.
    const expected = counts.reduce((a, b) => a + b) / 256;
    const [low, high] = [Math.min(...counts), Math.max(...counts)];
    assert.ok(low > expected * 0.85 && high < expected * 1.15, `byte counts ${low}..${high}, expected about ${expected}`);
  });
});
