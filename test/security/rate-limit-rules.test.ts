import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  ACTIONS,
  CONFIRM_EMAIL_BY_CODE_RATE_LIMIT,
  DEFAULT_RATE_LIMITS,
  parseRateLimits,
  type RateLimitConfig,
} from '../../src/config/rate-limits.js';

function parsed(value: string | undefined, opts = {}): RateLimitConfig {
  const config = parseRateLimits(value, opts);
  assert.notEqual(config, false);
  return config as RateLimitConfig;
}

describe('parseRateLimits', () => {
  test('unset gives the reference defaults for every action', () => {
    const config = parsed(undefined);
    assert.deepEqual(Object.keys(config).sort(), [...ACTIONS].sort());
    assert.deepEqual(Object.keys(DEFAULT_RATE_LIMITS).sort(), [...ACTIONS].sort());
    assert.deepEqual(config.login, { action: 'login', rules: [{ amount: 30, periodSeconds: 60, per: 'ip' }] });
    assert.deepEqual(config.login_failed.rules, [
      { amount: 10, periodSeconds: 60, per: 'ip' },
      { amount: 5, periodSeconds: 300, per: 'key' },
    ]);
    assert.deepEqual(config.confirm_email.rules, [{ amount: 1, periodSeconds: 180, per: 'key' }]);
    assert.deepEqual(config.verify_phone.rules, [
      { amount: 1, periodSeconds: 30, per: 'key' },
      { amount: 3, periodSeconds: 60, per: 'ip' },
    ]);
    assert.deepEqual(config.change_password.rules, [{ amount: 5, periodSeconds: 60, per: 'user' }]);
  });

  test('an empty value counts as unset', () => {
    assert.deepEqual(parsed('  '), parsed(undefined));
  });

  test('the result is frozen', () => {
    const config = parsed(undefined);
    assert.ok(Object.isFrozen(config) && Object.isFrozen(config.login) && Object.isFrozen(config.login.rules));
  });

  test('false, 0 and off disable rate limiting', () => {
    for (const value of ['false', '0', 'off', ' OFF ', 'False']) assert.equal(parseRateLimits(value), false, value);
  });

  test('email verification by code picks the shorter confirm_email default', () => {
    assert.equal(CONFIRM_EMAIL_BY_CODE_RATE_LIMIT, '1/10s/key');
    const config = parsed(undefined, { emailVerificationByCode: true });
    assert.deepEqual(config.confirm_email.rules, [{ amount: 1, periodSeconds: 10, per: 'key' }]);
  });

  test('period units and counts', () => {
    const config = parsed(
      JSON.stringify({ login: '1/s/ip,2/m/ip,3/5m/user,4/2h/key,5/d/ip,6/300s/key', signup: '7/10m' }),
    );
    assert.deepEqual(
      config.login.rules.map((rule) => [rule.amount, rule.periodSeconds, rule.per]),
      [
        [1, 1, 'ip'],
        [2, 60, 'ip'],
        [3, 300, 'user'],
        [4, 7200, 'key'],
        [5, 86400, 'ip'],
        [6, 300, 'key'],
      ],
    );
    // Like the reference, a rule without "per" limits per ip.
    assert.deepEqual(config.signup.rules, [{ amount: 7, periodSeconds: 600, per: 'ip' }]);
  });

  test('JSON overrides merge over the defaults', () => {
    const config = parsed(JSON.stringify({ login: ' 3/m/ip , 1/s/key ' }));
    assert.deepEqual(config.login.rules, [
      { amount: 3, periodSeconds: 60, per: 'ip' },
      { amount: 1, periodSeconds: 1, per: 'key' },
    ]);
    assert.deepEqual(config.signup, parsed(undefined).signup);
  });

  test('false, null or an empty rule disables one action only', () => {
    const config = parsed(JSON.stringify({ login: false, signup: '', reset_password: null }));
    assert.deepEqual(config.login, { action: 'login', rules: [] });
    assert.deepEqual(config.signup.rules, []);
    assert.deepEqual(config.reset_password.rules, []);
    assert.equal(config.login_failed.rules.length, 2);
  });

  test('legacy login attempts settings replace the key rule of login_failed', () => {
    const config = parsed(undefined, { loginAttemptsLimit: 3, loginAttemptsTimeout: 900 });
    assert.deepEqual(config.login_failed.rules, [
      { amount: 10, periodSeconds: 60, per: 'ip' },
      { amount: 3, periodSeconds: 900, per: 'key' },
    ]);
    assert.deepEqual(parsed(undefined, { loginAttemptsLimit: 7 }).login_failed.rules[1], {
      amount: 7,
      periodSeconds: 300,
      per: 'key',
    });
  });

  test('a zero legacy limit disables login_failed, as in the reference', () => {
    assert.deepEqual(parsed(undefined, { loginAttemptsLimit: 0 }).login_failed.rules, []);
  });

  test('an explicit login_failed rule wins over the legacy settings', () => {
    const config = parsed(JSON.stringify({ login_failed: '2/m/key' }), { loginAttemptsLimit: 3 });
    assert.deepEqual(config.login_failed.rules, [{ amount: 2, periodSeconds: 60, per: 'key' }]);
  });

  test('unknown actions fail, naming the variable and the action', () => {
    assert.throws(() => parseRateLimits(JSON.stringify({ logn: '1/m/ip' })), /ACCOUNT_RATE_LIMITS.*"logn"/);
  });

  test('bad rules fail, naming the variable, the action and the format', () => {
    const bad = ['10', '10/m/ip/x', 'ten/m/ip', '10/1.5m/ip', '10/w/ip', '10/m/host', '0/m/ip', '10/0s/ip', '10/m/ip,'];
    for (const rule of bad) {
      assert.throws(
        () => parseRateLimits(JSON.stringify({ signup: rule })),
        (error: Error) =>
          error.message.includes('ACCOUNT_RATE_LIMITS') &&
          error.message.includes('"signup"') &&
          error.message.includes('amount/period/per'),
        rule,
      );
    }
  });

  test('values that are not a JSON object of strings fail, naming the variable', () => {
    for (const value of ['{login: 1}', 'true', '[]', 'null', '"10/m/ip"', JSON.stringify({ login: 10 })]) {
      assert.throws(() => parseRateLimits(value), /ACCOUNT_RATE_LIMITS/, value);
    }
  });

  test('bad legacy settings fail, naming the setting', () => {
    assert.throws(() => parseRateLimits(undefined, { loginAttemptsLimit: -1 }), /ACCOUNT_LOGIN_ATTEMPTS_LIMIT/);
    assert.throws(() => parseRateLimits(undefined, { loginAttemptsTimeout: 1.5 }), /ACCOUNT_LOGIN_ATTEMPTS_TIMEOUT/);
  });
});
