import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { authHashMatches, authMethods, readDjangoSession, sessionUserId } from '../../../src/flows/admin/import-allauth/django-session.js';
import { DJANGO_SECRET_KEY } from '../../cli/support.js';

// Django's session encoding, checked against rows Django wrote (the allauth
// fixture's django_session), not against an encoder of our own.

const ALICE_DATA =
  '.eJxVTs1qwzAMfhedg4k6105z2vYaowRZlklYYpfaYYXSd9-c5ZKTxPf_BGJOaywDrWWUWCamMqU4LFLG5DP0X0_4_6GHG-X8k-4eGqACPdrLWZuzPbWqHjS6gTXLPdIif2qaJ5Z3edBym0VxWuB1bWArGqpsmGomwgFzxN8S_WafK6z2gWrT7HRWH4e5n7vrEDVSHmuBR_Tdmw46tBb5JGhbqwPbzqHjTnei2Vx0q5mDBELvhYkMs_PGiWN4_QIb0mOG:1xVaeW:Oq-cObplsUHWA7fdQVVyJXetSFOKnJDlT40F9Aov52o';
const ALICE_HASH = 'pbkdf2_sha256$1000000$ilJvSKqP50Pn2qveU9Zmfg$hXfewHruIwn5sUHUurkxh5RmLzoLV4KQC/ARHv413aM=';
const ANONYMOUS_DATA =
  '.eJwlykEKgCAQBdC7_HUERWp5lYgYbCAXjaEjLaK7F7R7i3eDQkhVdKWqO4vGQBqTrAfrnrYCP9_4DY-TSrlS3tCAFL5zkxmssZNtTT8OzvUNauEsdPC3OUfBszwvDp4hkg:1xVae8:sbLPZq8Twqb4KaGPcduLsnMfqHRLYvhE1HIFHbZr9s4';

describe("Django's session data", () => {
  it('reads a session signed with the key or a fallback, with its user and methods', () => {
    for (const keys of [[DJANGO_SECRET_KEY], ['a newer key that did not sign it', DJANGO_SECRET_KEY]]) {
      const read = readDjangoSession(ALICE_DATA, keys);
      assert.ok(read.ok);
      assert.equal(sessionUserId(read.data), 1);
      assert.deepEqual(authMethods(read.data), [{ method: 'password', at: 1795465720.4657164, username: 'alice@example.com' }]);
    }
    const anonymous = readDjangoSession(ANONYMOUS_DATA, [DJANGO_SECRET_KEY]);
    assert.ok(anonymous.ok);
    assert.equal(sessionUserId(anonymous.data), null);
  });

  it('refuses a session another key signed, or that was altered', () => {
    assert.deepEqual(readDjangoSession(ALICE_DATA, ['another key']), { ok: false, reason: 'bad_signature' });
    const [payload, time, signature] = ALICE_DATA.split(':') as [string, string, string];
    const altered = `${payload.slice(0, -1)}H:${time}:${signature}`;
    assert.deepEqual(readDjangoSession(altered, [DJANGO_SECRET_KEY]), { ok: false, reason: 'bad_signature' });
    for (const garbage of ['', 'no signature', ':', 'a:b:c']) assert.equal(readDjangoSession(garbage, [DJANGO_SECRET_KEY]).ok, false, garbage);
  });

  it("binds the session to the user's password hash, as Django does", () => {
    const read = readDjangoSession(ALICE_DATA, [DJANGO_SECRET_KEY]);
    assert.ok(read.ok);
    assert.equal(authHashMatches(read.data, ALICE_HASH, [DJANGO_SECRET_KEY]), true);
    assert.equal(authHashMatches(read.data, ALICE_HASH.replace('hXf', 'hXg'), [DJANGO_SECRET_KEY]), false);
    assert.equal(authHashMatches(read.data, ALICE_HASH, ['another key']), false);
    assert.equal(authHashMatches({ _auth_user_id: '1' }, ALICE_HASH, [DJANGO_SECRET_KEY]), false);
  });

  it('keeps the authentication methods this server knows, well formed', () => {
    const methods = authMethods({
      account_authentication_methods: [
        { method: 'password', at: 1, email: 'a@example.com', extra: 'dropped' },
        { method: 'password', at: 2, reauthenticated: true },
        { method: 'code', at: 3, phone: '+15550100' },
        { method: 'password_reset', at: 4 },
        { method: 'mfa', at: 5, type: 'totp' },
        { method: 'socialaccount', at: 6, provider: 'github' },
        { method: 'password', at: 'yesterday' },
        'not an object',
      ],
    });
    assert.deepEqual(methods, [
      { method: 'password', at: 1, email: 'a@example.com' },
      { method: 'password', at: 2, reauthenticated: true },
      { method: 'code', at: 3, phone: '+15550100' },
      { method: 'password_reset', at: 4 },
    ]);
    assert.deepEqual(authMethods({}), []);
  });
});
