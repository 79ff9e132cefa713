import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { recoveryCodesOf, totpSecretOf, webAuthnOf } from '../../../src/flows/admin/import-allauth/mfa-data.js';

// Reading allauth's mfa_authenticator.data: what passes, and the reason
// given for what does not (the end-to-end import is in test/cli/import-allauth*.test.ts).

const SEED = '51ba67dd67c06e30e2338cedc11ec04f7b530620425de55d6a886952ee2cc09e014f0175dfd629c6';

describe("allauth's MFA data", () => {
  it('a TOTP secret in base32, whatever its case or padding; ciphertext and missing values are told apart', () => {
    assert.deepEqual(totpSecretOf({ secret: '2qjzcrflglhey7itb5wyzggawsi2msv2a====' }), { secret: '2QJZCRFLGLHEY7ITB5WYZGGAWSI2MSV2A' });
    // A Fernet token, as a custom adapter's encrypt() might store.
    assert.equal(totpSecretOf({ secret: 'gAAAAABnR2VuY3J5cHRlZC1ieS1hLWN1c3RvbS1hZGFwdGVy' }), 'encrypted_secret');
    assert.equal(totpSecretOf({ secret: 'ABCDEFGH' }), 'encrypted_secret', 'too short for any authenticator app');
    assert.equal(totpSecretOf({}), 'unreadable');
    assert.equal(totpSecretOf({ secret: 42 }), 'unreadable');
  });

  it('recovery codes: the seed with the used mask and when they were viewed; the migrated form is refused by name', () => {
    assert.deepEqual(recoveryCodesOf({ seed: SEED, used_mask: 5, viewed_at: 1795465699.498782 }), { seed: SEED, usedMask: 5, viewedAt: 1795465699499 });
    assert.deepEqual(recoveryCodesOf({ seed: SEED }), { seed: SEED, usedMask: 0, viewedAt: null });
    assert.equal(recoveryCodesOf({ migrated_codes: ['12345678'] }), 'migrated_codes');
    assert.equal(recoveryCodesOf({ seed: `gAAAA${SEED}` }), 'encrypted_secret');
    assert.equal(recoveryCodesOf({ seed: SEED, used_mask: -1 }), 'unreadable');
    assert.equal(recoveryCodesOf({ seed: SEED, used_mask: 1.5 }), 'unreadable');
    assert.equal(recoveryCodesOf({ used_mask: 0 }), 'unreadable');
  });

  it('a WebAuthn row without a decodable registration response is unreadable', () => {
    assert.equal(webAuthnOf({ name: 'key' }), 'unreadable');
    assert.equal(webAuthnOf({ name: 'key', credential: { response: {} } }), 'unreadable');
    assert.equal(webAuthnOf({ name: 'key', credential: { response: { attestationObject: 'bm90IGNib3I' } } }), 'unreadable');
  });
});
