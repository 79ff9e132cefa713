import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { deriveRecoveryCodes, isUsed, newRecoverySeed } from '../../src/security/recovery-codes.js';
import { matchTotp, newTotpSecret, totpCode, totpUrl } from '../../src/security/totp.js';

// Pure logic: the derivations must give exactly what django-allauth gives,
// so imported authenticators keep working.

describe('recovery codes', () => {
  it('derive from a seed as django-allauth does (heidi of the allauth 65 fixture)', () => {
    const seed = '51ba67dd67c06e30e2338cedc11ec04f7b530620425de55d6a886952ee2cc09e014f0175dfd629c6';
    assert.deepEqual(deriveRecoveryCodes(seed, 10, 8), [
      '93811118', '22091738', '77132507', '39433900', '35425100',
      '40549615', '59713171', '65474833', '52171526', '78192506',
    ]);
  });

  it('keep leading zeros and honour the digit count', () => {
    const codes = deriveRecoveryCodes(newRecoverySeed(), 50, 12);
    assert.equal(codes.length, 50);
    for (const code of codes) assert.match(code, /^\d{12}$/);
  });

  it('read the used mask bit by bit, beyond 32 bits', () => {
    const mask = 2 ** 40 + 2 ** 3 + 1;
    assert.deepEqual([0, 1, 3, 40, 41].map((i) => isUsed(mask, i)), [true, false, true, true, false]);
  });

  it('make 80-character hex seeds', () => {
    assert.match(newRecoverySeed(), /^[0-9a-f]{80}$/);
  });
});

describe('TOTP', () => {
  // RFC 6238, appendix B (SHA-1): the secret is the ASCII "12345678901234567890".
  const rfcSecret = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
  const params = { period: 30, digits: 8, tolerance: 0 };

  it('computes the RFC 6238 test vectors', () => {
    assert.equal(totpCode(rfcSecret, Math.floor(59 / 30), 8), '94287082');
    assert.equal(totpCode(rfcSecret, Math.floor(1111111109 / 30), 8), '07081804');
    assert.equal(totpCode(rfcSecret, Math.floor(20000000000 / 30), 8), '65353130');
  });

  it('matches the step of a code within the tolerance only', () => {
    const now = 1111111109_000;
    assert.equal(matchTotp(rfcSecret, '07081804', now, params), Math.floor(1111111109 / 30));
    const previous = totpCode(rfcSecret, Math.floor(1111111109 / 30) - 1, 8);
    assert.equal(matchTotp(rfcSecret, previous, now, params), null);
    assert.equal(matchTotp(rfcSecret, previous, now, { ...params, tolerance: 1 }), Math.floor(1111111109 / 30) - 1);
    assert.equal(matchTotp(rfcSecret, '123', now, params), null);
  });

  it('makes 32-character base32 secrets', () => {
    assert.match(newTotpSecret(), /^[A-Z2-7]{32}$/);
  });

  it('builds the provisioning URL in the reference form', () => {
    const secret = '2QJZCRFLGLHEY7ITB5WYZGGAWSI2MSV2';
    assert.equal(
      totpUrl(secret, 'heidi@example.com', '127.0.0.1:9400', { period: 30, digits: 6, tolerance: 0 }),
      'otpauth://totp/heidi%40example.com?secret=2QJZCRFLGLHEY7ITB5WYZGGAWSI2MSV2&issuer=127.0.0.1%3A9400',
    );
    assert.equal(totpUrl(secret, 'a b', 'X', { period: 60, digits: 8, tolerance: 0 }), `otpauth://totp/a%20b?secret=${secret}&issuer=X&digits=8&period=60`);
  });
});
