import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkPassword, quickRatio } from '../../src/security/password-policy.js';

const codes = (password: string, userAttributes?: string[]) =>
  checkPassword(password, { minLength: 8, userAttributes }).map((p) => p.code);

describe('checkPassword', () => {
  it('accepts a long, uncommon, unrelated password', () => {
    assert.deepEqual(checkPassword('violet-tugboat-marmalade', { minLength: 8, userAttributes: ['alice'] }), []);
  });

  it('reports password_too_short, naming the minimum', () => {
    const problems = checkPassword('x7#Kq', { minLength: 8 });
    assert.deepEqual(problems.map((p) => p.code), ['password_too_short']);
    assert.deepEqual(problems[0]!.message.values, { min: 8 });
  });

  it('counts characters, not UTF-16 units', () => {
    // Eight astral characters are sixteen UTF-16 units.
    assert.deepEqual(codes('🦊'.repeat(7)), ['password_too_short']);
    assert.deepEqual(codes('🦊🐙🦉🐝🦔🐢🦜🐌'), []);
  });

  it('reports password_too_common, ignoring case and surrounding space', () => {
    for (const password of ['password123', 'qwerty123', 'PassWord123', ' qwerty123 ', 'iloveyou']) {
      assert.deepEqual(codes(password), ['password_too_common'], password);
    }
  });

  it('reports password_entirely_numeric', () => {
    assert.deepEqual(codes('83920571946'), ['password_entirely_numeric']);
    // Non-ASCII decimal digits count as digits, as in Python's str.isdigit().
    assert.deepEqual(codes('٨٣٩٢٠٥٧١٩٤'), ['password_entirely_numeric']);
    assert.deepEqual(codes('83920571946a'), []);
  });

  it('reports every problem at once, in Django order', () => {
    assert.deepEqual(codes('123456'), ['password_too_short', 'password_too_common', 'password_entirely_numeric']);
    assert.deepEqual(codes('qzxwvk', ['qzxwvk']), ['password_too_similar', 'password_too_short']);
  });

  it('reports password_too_similar to an email address', () => {
    assert.deepEqual(codes('alicesmith1', ['alice.smith@example.com']), ['password_too_similar']);
    assert.deepEqual(codes('ALICESMITH1', ['Alice.Smith@Example.com']), ['password_too_similar']);
  });

  it('reports password_too_similar to a part of an attribute', () => {
    // "bartholomew" alone is far from the whole value but equal to one of its parts.
    assert.deepEqual(codes('bartholomew!', ['x_y bartholomew-quintessential']), ['password_too_similar']);
    assert.deepEqual(codes('swordfish42', ['swordfish']), ['password_too_similar']);
  });

  it('ignores short parts that a long password cannot resemble', () => {
    // Django skips "al": the password is over ten times longer.
    assert.deepEqual(codes('al-violet-tugboat-marmalade', ['al']), []);
  });

  it('ignores empty and unrelated attributes', () => {
    assert.deepEqual(codes('violet-tugboat-marmalade', ['', '@', 'bob@example.org']), []);
  });

  it("refuses the site's name and passwords built on it as too common", () => {
    const policy = { minLength: 8, siteName: 'Quokka Market' };
    for (const password of ['Quokka Market', 'quokkamarket', 'QuokkaMarket!', 'my quokka market']) {
      assert.deepEqual(checkPassword(password, policy).map((p) => p.code), ['password_too_common'], password);
    }
    assert.deepEqual(checkPassword('violet-tugboat-marmalade', policy), []);
  });
});

describe('quickRatio', () => {
  it("matches Python's difflib.SequenceMatcher.quick_ratio", () => {
    // Reference values printed by CPython's difflib.
    assert.equal(quickRatio('alicesmith1', 'alice.smith'), 0.9090909090909091);
    assert.equal(quickRatio('alicesmith1', 'alice.smith@example.com'), 0.5882352941176471);
    assert.equal(quickRatio('abc', 'xyz'), 0);
    assert.equal(quickRatio('', ''), 1);
  });
});
