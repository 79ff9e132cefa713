import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { signer } from '../../src/security/signing.js';

const OLD = 'old-secret-0123456789abcdef0123456789';
const NEW = 'new-secret-0123456789abcdef0123456789';

describe('signer over a key ring', () => {
  it('signs with the first key and verifies with any', () => {
    const before = signer([OLD], 'csrf');
    const during = signer([NEW, OLD], 'csrf');
    const signature = before.sign('message');
    assert.equal(during.verify('message', signature), true);
    assert.equal(during.sign('message'), signer([NEW], 'csrf').sign('message'));
    assert.equal(signer([NEW], 'csrf').verify('message', signature), false, 'the old key dropped');
    assert.equal(during.verifyCurrent('message', signature), false, 'made by a fallback, worth signing anew');
    assert.equal(during.verifyCurrent('message', during.sign('message')), true);
  });

  it('binds signatures to their message and purpose', () => {
    const csrf = signer([NEW], 'csrf');
    assert.equal(csrf.verify('other message', csrf.sign('message')), false);
    assert.equal(signer([NEW], 'trusted-browser').verify('message', csrf.sign('message')), false);
  });

  it('signs values that carry their signature', () => {
    const cookie = signer([NEW, OLD], 'trusted-browser');
    const signed = signer([OLD], 'trusted-browser').signValue('user:42.until:1700000000');
    assert.equal(cookie.readValue(signed), 'user:42.until:1700000000');
    assert.equal(cookie.readValue(`${signed}x`), null);
    assert.equal(cookie.readValue('no signature'), null);
  });
});
