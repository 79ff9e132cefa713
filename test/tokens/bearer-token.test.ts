import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bearerToken } from '../../src/http/app-tokens.js';

describe('Authorization header parsing', () => {
  const token = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl';

  it('takes the credential after the configured scheme word, in any case', () => {
    assert.equal(bearerToken(`Bearer ${token}`, 'Bearer'), token);
    assert.equal(bearerToken(`bEARER ${token}`, 'Bearer'), token);
    assert.equal(bearerToken(`  Bearer    ${token}  `, 'Bearer'), token);
    assert.equal(bearerToken(`Token ${token}`, 'Token'), token);
  });

  it('refuses other scheme words, a missing scheme and more than one word', () => {
    for (const value of [`Token ${token}`, `Bearers ${token}`, `Beare ${token}`, `Bearer${token}`, token, `Bearer\t${token}`, `Bearer ${token} extra`, `Bearer ${token}\textra`, 'Bearer ', '']) {
      assert.equal(bearerToken(value, 'Bearer'), undefined, JSON.stringify(value));
    }
    assert.equal(bearerToken(undefined, 'Bearer'), undefined);
  });
});
