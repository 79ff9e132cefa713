import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeEachDatabase } from '../support/server.js';
import { PASSWORD, uniqueEmail } from '../support/accounts.js';
import { totpAccount } from '../mfa/support.js';
import { cliError, cliJson } from '../cli/support.js';
import { CLI, tracedClient, UserTrail } from './support.js';

// The admin commands that change addresses and authenticators write their
// events (actor cli, no address or user agent) with the change.

describeEachDatabase('audit events of the CLI address and authenticator commands', { ACCOUNT_EMAIL_VERIFICATION: 'optional', TRUSTED_PROXY_COUNT: '1' }, ({ server }) => {
  const url = () => server().app.deps.config.databaseUrl;

  it('records emails add, verify, primary and remove, and nothing for a command that changes nothing', async () => {
    const client = await tracedClient(server(), 'app');
    const email = uniqueEmail('cli-mail');
    const signup = await client.post('/auth/signup', { email, password: PASSWORD });
    assert.equal(signup.status, 200, JSON.stringify(signup.body));
    const trail = new UserTrail(server(), signup.body.data.user.id);
    await trail.expect(
      server().clock.now(),
      { type: 'signup', from: client, detail: { method: 'password', email } },
      { type: 'login.succeeded', from: client, detail: { method: 'signup' } },
    );

    const second = uniqueEmail('cli-second');
    await cliJson(url(), ['emails', 'add', email, second]);
    await trail.expect(Date.now(), { type: 'email.added', from: CLI, detail: { email: second, actor: 'cli' } });
    assert.equal((await cliJson(url(), ['emails', 'verify', second])).changed, true);
    assert.equal((await cliJson(url(), ['emails', 'verify', second])).changed, false);
    await trail.expect(Date.now(), { type: 'email.verified', from: CLI, detail: { email: second, actor: 'cli' } });
    await cliJson(url(), ['emails', 'primary', second]);
    await cliJson(url(), ['emails', 'primary', second]);
    await trail.expect(Date.now(), { type: 'email.primary_changed', from: CLI, detail: { email: second, actor: 'cli' } });
    await cliJson(url(), ['emails', 'remove', email]);
    await trail.expect(Date.now(), { type: 'email.removed', from: CLI, detail: { email, actor: 'cli' } });

    // Added verified and primary at once: three events, in the order the API would write them.
    const third = uniqueEmail('cli-third');
    await cliJson(url(), ['emails', 'add', second, third, '--verified', '--primary']);
    await trail.expect(
      Date.now(),
      { type: 'email.added', from: CLI, detail: { email: third, actor: 'cli' } },
      { type: 'email.verified', from: CLI, detail: { email: third, actor: 'cli' } },
      { type: 'email.primary_changed', from: CLI, detail: { email: third, actor: 'cli' } },
    );
    // A refused command writes nothing.
    await cliError(url(), ['emails', 'remove', third], 'cannot_remove_primary_email');
    await trail.expect(Date.now());
  });

  it('records the first address of a user without one as added, not as a primary change', async () => {
    const made = await cliJson(url(), ['users', 'create', '--username', `cli${Date.now()}`, '--no-password']);
    const trail = new UserTrail(server(), made.id);
    await trail.expect(Date.now(), { type: 'signup', from: CLI, detail: { actor: 'cli' } });
    const email = uniqueEmail('cli-first');
    assert.equal((await cliJson(url(), ['emails', 'add', String(made.id), email])).primary, true);
    await trail.expect(Date.now(), { type: 'email.added', from: CLI, detail: { email, actor: 'cli' } });
  });

  it('records each authenticator authenticators delete removes, the recovery codes that go with TOTP included', async () => {
    const account = await totpAccount(server(), 'app');
    const userId = (await account.client.get('/auth/session')).body.data.user.id;
    const trail = new UserTrail(server(), userId);
    await trail.skip();
    const [totp, codes] = (await cliJson(url(), ['authenticators', 'list', account.email])).authenticators;
    const deleted = await cliJson(url(), ['authenticators', 'delete', account.email, 'totp', '--yes']);
    assert.deepEqual(deleted.deleted, [
      { id: totp.id, type: 'totp' },
      { id: codes.id, type: 'recovery_codes' },
    ]);
    await trail.expect(
      Date.now(),
      { type: 'authenticator.removed', from: CLI, detail: { authenticator: 'totp', authenticator_id: totp.id, actor: 'cli' } },
      { type: 'authenticator.removed', from: CLI, detail: { authenticator: 'recovery_codes', authenticator_id: codes.id, actor: 'cli' } },
    );
  });
});
