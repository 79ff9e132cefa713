import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createCipheriv, createHash } from 'node:crypto';
import { sidCodec } from '../../src/tokens/sid.js';

// Interoperability with the reference's sid: base64(IV || AES-256-CTR(session
// key)), key = SHA-256(secret key). The expected values are computed here with
// node:crypto directly, independently of the code under test.

const SECRET = 'django-insecure-known-secret-key-for-sid-interop-0123';
const SESSION_KEY = 'q8x3v0r4m1k9z2c7w5t6y0p3n8b1h4j6';
const IV = Buffer.from('000102030405060708090a0b0c0d0e0f', 'hex');

function referenceSid(secret: string, sessionKey: string, iv: Buffer): string {
  const key = createHash('sha256').update(secret).digest();
  const cipher = createCipheriv('aes-256-ctr', key, iv);
  return Buffer.concat([iv, cipher.update(sessionKey), cipher.final()]).toString('base64');
}

describe('sid', () => {
  it('decrypts a sid made with a known key and IV to the known session key', () => {
    const sid = referenceSid(SECRET, SESSION_KEY, IV);
    assert.equal(sidCodec([SECRET]).decrypt(sid), SESSION_KEY);
  });

  it('encrypts byte for byte as the reference does for a given IV', () => {
    const sid = sidCodec([SECRET]).encrypt(SESSION_KEY, IV);
    assert.equal(sid, referenceSid(SECRET, SESSION_KEY, IV));
    // Standard alphabet, padded: 16 + 33 bytes need two padding characters.
    const padded = sidCodec([SECRET]).encrypt(`${SESSION_KEY}x`, IV);
    assert.match(padded, /^[A-Za-z0-9+/]+==$/);
    assert.equal(padded, referenceSid(SECRET, `${SESSION_KEY}x`, IV));
  });

  it('uses a fresh IV per token', () => {
    const codec = sidCodec([SECRET]);
    const a = codec.encrypt(SESSION_KEY);
    const b = codec.encrypt(SESSION_KEY);
    assert.notEqual(a, b);
    assert.equal(codec.decrypt(a), SESSION_KEY);
    assert.equal(codec.decrypt(b), SESSION_KEY);
  });

  it('does not decrypt under another secret key to the session key', () => {
    const sid = referenceSid(SECRET, SESSION_KEY, IV);
    assert.notEqual(sidCodec([`${SECRET}-other`]).decrypt(sid), SESSION_KEY);
  });

  it('decrypts sids of a fallback key and encrypts with the current one', () => {
    const old = referenceSid(SECRET, SESSION_KEY, IV);
    const rotated = sidCodec([`${SECRET}-new`, SECRET]);
    assert.equal(rotated.decrypt(old), SESSION_KEY);
    const fresh = rotated.encrypt(SESSION_KEY);
    assert.equal(sidCodec([`${SECRET}-new`]).decrypt(fresh), SESSION_KEY);
    assert.notEqual(sidCodec([SECRET]).decrypt(fresh), SESSION_KEY);
    assert.notEqual(sidCodec([`${SECRET}-new`]).decrypt(old), SESSION_KEY, 'the fallback dropped, the old sid is gone');
  });

  it('rejects what is not a sid', () => {
    const codec = sidCodec([SECRET]);
    assert.equal(codec.decrypt('not base64!'), null);
    assert.equal(codec.decrypt(IV.toString('base64')), null, 'an IV alone holds no key');
    assert.equal(codec.decrypt(''), null);
    assert.equal(codec.decrypt('abc'), null, 'unpadded');
  });
});
