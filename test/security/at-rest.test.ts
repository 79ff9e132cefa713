import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { atRestCipher } from '../../src/security/at-rest.js';

const OLD = 'the-previous-secret-key-0123456789abcdef';
const NEW = 'the-current-secret-key-0123456789abcdefgh';

describe('data at rest', () => {
  it('opens what it sealed, and only for the same record', () => {
    const cipher = atRestCipher([NEW]);
    const sealed = cipher.seal('JBSWY3DPEHPK3PXP', 'totp:7');
    assert.match(sealed, /^v1\.[0-9a-f]{8}\.[A-Za-z0-9_-]+$/);
    assert.ok(!sealed.includes('JBSWY3DPEHPK3PXP'));
    assert.equal(cipher.open(sealed, 'totp:7'), 'JBSWY3DPEHPK3PXP');
    assert.equal(cipher.open(sealed, 'totp:8'), null);
  });

  it('seals the same text differently each time', () => {
    const cipher = atRestCipher([NEW]);
    assert.notEqual(cipher.seal('same', 'c'), cipher.seal('same', 'c'));
  });

  it('refuses tampered, truncated and malformed text instead of throwing', () => {
    const cipher = atRestCipher([NEW]);
    const sealed = cipher.seal('secret', 'c');
    const [v, id, payload] = sealed.split('.') as [string, string, string];
    const flipped = payload.slice(0, -2) + (payload.at(-2) === 'A' ? 'B' : 'A') + payload.at(-1);
    for (const bad of [`${v}.${id}.${flipped}`, `${v}.${id}.${payload.slice(0, 20)}`, `v2.${id}.${payload}`, `${v}.${id}`, '', 'plain text', `${sealed}.x`]) {
      assert.equal(cipher.open(bad, 'c'), null, bad);
    }
  });

  it('keeps opening data sealed under a fallback key after rotation, and says it is stale', () => {
    const before = atRestCipher([OLD]);
    const sealed = before.seal('seed', 'recovery_codes:1');
    const after = atRestCipher([NEW, OLD]);
    assert.equal(after.open(sealed, 'recovery_codes:1'), 'seed');
    assert.equal(after.isStale(sealed), true);
    assert.equal(after.isStale(after.seal('seed', 'recovery_codes:1')), false);
    // Once the old key is dropped from the ring, its data no longer opens.
    assert.equal(atRestCipher([NEW]).open(sealed, 'recovery_codes:1'), null);
  });
});
