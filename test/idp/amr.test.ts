import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { amrOf } from '../../src/idp/interactions.js';

// The ID token's amr from the login's methods (RFC 8176 values), pure logic.

describe('OpenID provider: amr from the login methods', () => {
  it('names each proof', () => {
    assert.deepEqual(amrOf([{ method: 'password' }]), ['pwd']);
    assert.deepEqual(amrOf([{ method: 'code' }]), ['otp']);
    assert.deepEqual(amrOf([{ method: 'socialaccount' }]), ['fed']);
    assert.deepEqual(amrOf([{ method: 'password' }, { method: 'mfa', type: 'totp' }]).sort(), ['mfa', 'otp', 'pwd']);
    assert.deepEqual(amrOf([{ method: 'password' }, { method: 'mfa', type: 'webauthn' }]).sort(), ['hwk', 'mfa', 'pwd']);
    assert.deepEqual(amrOf([{ method: 'mfa', type: 'webauthn', passwordless: true }]).sort(), ['hwk', 'user']);
    assert.deepEqual(amrOf([]), []);
  });
});
