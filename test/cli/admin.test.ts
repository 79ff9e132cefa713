import { it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase, type TestServer } from '../support/server.js';
import { PASSWORD, uniqueEmail, uniqueUsername } from '../support/accounts.js';
import { cliError, cliJson, runCli } from './support.js';

// The admin commands against the database of a listening server, each
// checked by what a client then sees over HTTP.

const ENV = { ACCOUNT_LOGIN_METHODS: 'email,username', ACCOUNT_SIGNUP_FIELDS: 'email*,username*,password1*', ACCOUNT_EMAIL_VERIFICATION: 'optional' };

async function login(server: TestServer, email: string, password = PASSWORD) {
  return server.client('app').post('/auth/login', { email, password });
}

/** A user who signed up over the API, and so has one session (the CLI's own `users create` has its test). */
async function signedUp(server: TestServer): Promise<{ id: number; email: string; username: string }> {
  const email = uniqueEmail('cli');
  const username = uniqueUsername('cli');
  const response = await server.client('app').post('/auth/signup', { email, username, password: PASSWORD });
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return { id: response.body.data.user.id, email, username };
}

/** A logged-in app client's session token. */
async function sessionToken(server: TestServer, email: string, password = PASSWORD): Promise<string> {
  const response = await login(server, email, password);
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return response.body.meta.session_token;
}

async function sessionStatus(server: TestServer, token: string): Promise<number> {
  return (await server.client('app').get('/auth/session', { 'x-session-token': token })).status;
}

describeEachDatabase('admin CLI', ENV, ({ server }) => {
  const db = () => server().app.deps.config.databaseUrl;

  it('creates a user under the signup rules, who then logs in', async () => {
    const email = uniqueEmail('cli');
    const username = uniqueUsername('cli');
    const user = await cliJson(db(), ['users', 'create', '--email', email, '--username', username, '--verified', '--password-stdin'], { stdin: `${PASSWORD}\n` });
    assert.equal(user.username, username);
    assert.deepEqual(user.email_addresses, [{ email, verified: true, primary: true }]);
    assert.deepEqual(user.password, { scheme: 'argon2id', current: true });
    const response = await login(server(), email);
    assert.equal(response.status, 200);
    assert.equal(response.body.data.user.id, user.id);
    assert.equal(response.body.data.user.username, username);

    await cliError(db(), ['users', 'create', '--email', email.toUpperCase(), '--username', uniqueUsername(), '--no-password'], 'email_taken');
    await cliError(db(), ['users', 'create', '--email', uniqueEmail(), '--password-stdin'], 'password_too_short', { stdin: 'short\n' });
  });

  it('sets a password: the old one stops working and the sessions end', async () => {
    const user = await signedUp(server());
    const token = await sessionToken(server(), user.email);
    const result = await cliJson(db(), ['users', 'set-password', user.username, '--password-stdin'], { stdin: 'another long passphrase\n' });
    assert.deepEqual(result, { user_id: user.id, sessions_ended: 2 });
    assert.equal(await sessionStatus(server(), token), 410);
    assert.equal((await login(server(), user.email)).status, 400);
    assert.equal((await login(server(), user.email, 'another long passphrase')).status, 200);
  });

  it('disables a user (logged out at once, login refused) and enables them again', async () => {
    const user = await signedUp(server());
    const token = await sessionToken(server(), user.email);
    assert.deepEqual(await cliJson(db(), ['users', 'disable', `id:${user.id}`]), { user_id: user.id, is_active: false, sessions_ended: 2 });
    assert.equal(await sessionStatus(server(), token), 410);
    const refused = await login(server(), user.email);
    assert.equal(refused.status, 400);
    assert.equal(refused.body.errors[0].code, 'account_inactive');
    await cliJson(db(), ['users', 'enable', user.email]);
    assert.equal((await login(server(), user.email)).status, 200);
  });

  it('adds, verifies, makes primary and removes addresses', async () => {
    const user = await signedUp(server());
    const other = uniqueEmail('second');
    assert.deepEqual(await cliJson(db(), ['emails', 'add', user.username, other]), { user_id: user.id, email: other, verified: false, primary: false });
    assert.equal((await cliJson(db(), ['emails', 'verify', other])).changed, true);
    await cliError(db(), ['emails', 'remove', user.email], 'cannot_remove_primary_email');
    await cliJson(db(), ['emails', 'primary', other]);
    await cliJson(db(), ['emails', 'remove', user.email]);
    const response = await login(server(), other);
    assert.equal(response.status, 200);
    assert.equal(response.body.data.user.email, other);
    assert.equal((await login(server(), user.email)).status, 400);
    await cliError(db(), ['emails', 'add', user.username, other.toUpperCase()], 'duplicate_email');
  });

  it('lists sessions and revokes one, then all', async () => {
    const user = await signedUp(server());
    const first = await sessionToken(server(), user.email);
    const second = await sessionToken(server(), user.email);
    const listed = await cliJson(db(), ['sessions', 'list', user.email]);
    // The signup's session, then the two logins'.
    assert.equal(listed.sessions.length, 3);
    assert.deepEqual(listed.sessions[1].methods, ['password']);
    await cliError(db(), ['sessions', 'revoke', user.email], 'required');
    assert.deepEqual(await cliJson(db(), ['sessions', 'revoke', user.email, String(listed.sessions[1].id)]), { user_id: user.id, sessions_ended: 1 });
    assert.equal(await sessionStatus(server(), first), 410);
    assert.equal(await sessionStatus(server(), second), 200);
    const stranger = await signedUp(server());
    await cliError(db(), ['sessions', 'revoke', stranger.email, String(listed.sessions[2].id)], 'not_found');
    assert.deepEqual(await cliJson(db(), ['sessions', 'revoke', user.email, '--all']), { user_id: user.id, sessions_ended: 2 });
    assert.equal(await sessionStatus(server(), second), 410);
  });

  it('finds users by part of a name or address, a page at a time', async () => {
    const tag = uniqueUsername('findme').toLowerCase();
    const ids: number[] = [];
    for (const n of [1, 2, 3]) {
      const response = await server().client('app').post('/auth/signup', { email: `${tag}-${n}@example.org`, username: `u${n}_${tag}`, password: PASSWORD });
      ids.push(response.body.data.user.id);
    }
    const page = await cliJson(db(), ['users', 'find', tag.toUpperCase(), '--limit', '2']);
    assert.deepEqual(page.users.map((u: any) => u.id), ids.slice(0, 2));
    assert.equal(page.next_after, ids[1]);
    const rest = await cliJson(db(), ['users', 'find', `${tag}-3@`, '--limit', '2', '--after', String(page.next_after)]);
    assert.deepEqual(rest.users.map((u: any) => u.id), [ids[2]]);
    assert.equal(rest.next_after, null);
    // The LIKE wildcards are matched as typed.
    assert.deepEqual((await cliJson(db(), ['users', 'find', '%_%'])).users, []);
  });

  it('deletes a user, asking first; the account is gone', async () => {
    const user = await signedUp(server());
    await cliError(db(), ['users', 'delete', user.email], 'confirmation_required');
    assert.deepEqual(await cliJson(db(), ['users', 'delete', user.email, '--yes']), { user_id: user.id, deleted: true });
    await cliError(db(), ['users', 'show', user.email], 'not_found');
    assert.equal((await login(server(), user.email)).status, 400);
  });

  it('prints for people without --json', async () => {
    const user = await signedUp(server());
    const shown = await runCli(db(), ['users', 'show', String(user.id)]);
    assert.equal(shown.status, 0, shown.stderr);
    assert.ok(shown.stdout.includes(user.username) && shown.stdout.includes(user.email), shown.stdout);
    assert.equal(shown.json, undefined, 'text, not JSON');
    const missing = await runCli(db(), ['users', 'show', 'nobody-by-this-name']);
    assert.equal(missing.status, 1);
    assert.equal(missing.stdout, '');
    assert.ok(missing.stderr.includes('not_found'), missing.stderr);
  });
});
