import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { VerifiedTokenCache, type VerifiedAccess } from '../../src/tokens/verified-cache.js';

// The cache files entries under a token's last characters; only the exact
// token text may ever get an entry back.
describe('verified access-token cache', () => {
  const signature = 'S'.repeat(40);
  const access = (sessionKey: string): VerifiedAccess => ({ sub: '1', exp: 2_000_000_000, sessionKey });

  it('a different token sharing the last characters is a miss, not a hit', () => {
    const cache = new VerifiedTokenCache();
    cache.set(`header.payload-a.${signature}`, access('a'));
    assert.equal(cache.get(`header.payload-b.${signature}`, 0), undefined);
    assert.equal(cache.get(`header.payload-a.${signature}`, 0)?.sessionKey, 'a');
  });

  it('an expired entry is dropped on lookup', () => {
    const cache = new VerifiedTokenCache();
    cache.set(`t.${signature}`, { ...access('a'), exp: 100 });
    assert.equal(cache.get(`t.${signature}`, 99_000)?.sessionKey, 'a');
    assert.equal(cache.get(`t.${signature}`, 100_000), undefined);
    assert.equal(cache.get(`t.${signature}`, 0), undefined);
  });

  it('keeps at most its capacity, oldest out first', () => {
    const cache = new VerifiedTokenCache(2);
    for (const name of ['one', 'two', 'three']) cache.set(`${name}.${name.repeat(12)}`, access(name));
    assert.equal(cache.get(`one.${'one'.repeat(12)}`, 0), undefined);
    assert.equal(cache.get(`two.${'two'.repeat(12)}`, 0)?.sessionKey, 'two');
    assert.equal(cache.get(`three.${'three'.repeat(12)}`, 0)?.sessionKey, 'three');
  });
});
