import { it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase, type TestServer } from '../support/server.js';
import { readyClient } from '../support/accounts.js';
import { pendingFlow, recoveryCodes, totpAccount } from '../mfa/support.js';
import { cliError, cliJson, runCli } from './support.js';

// `headless-auth authenticators` against a listening server's database:
// what it lists (never a secret) and what a deletion does to the next login.

const ENV = { ACCOUNT_EMAIL_VERIFICATION: 'optional' };

async function loginStatus(server: TestServer, email: string, password: string): Promise<{ status: number; pending?: string }> {
  const login = await (await readyClient(server, 'app')).post('/auth/login', { email, password });
  return { status: login.status, pending: pendingFlow(login.body)?.id };
}

describeEachDatabase('admin CLI: authenticators', ENV, ({ server }) => {
  const db = () => server().app.deps.config.databaseUrl;

  it("lists a user's authenticators with their dates and unused codes, never a secret or code", async () => {
    const account = await totpAccount(server(), 'app');
    const codes = await recoveryCodes(account.client);
    const listed = await cliJson(db(), ['authenticators', 'list', account.email]);
    assert.deepEqual(
      listed.authenticators.map((a: any) => [a.type, a.recovery_codes, typeof a.created_at, a.last_used_at]),
      [
        ['totp', undefined, 'string', null],
        ['recovery_codes', { total: 10, unused: 10 }, 'string', null],
      ],
    );
    const shown = await runCli(db(), ['authenticators', 'list', account.email]);
    assert.equal(shown.status, 0, shown.stderr);
    assert.match(shown.stdout, /totp/);
    assert.match(shown.stdout, /10 of 10 unused/);
    for (const output of [JSON.stringify(listed), shown.stdout]) {
      assert.ok(!output.includes(account.secret), 'no TOTP secret');
      assert.ok(!codes.some((code) => output.includes(code)), 'no recovery code');
    }
    // `users show` names them too.
    assert.deepEqual((await cliJson(db(), ['users', 'show', account.email])).authenticators.map((a: any) => a.type), ['totp', 'recovery_codes']);
  });

  it('deletes TOTP after confirmation; the recovery codes go with it and the next login needs no second factor', async () => {
    const account = await totpAccount(server(), 'app');
    assert.deepEqual(await loginStatus(server(), account.email, account.password), { status: 401, pending: 'mfa_authenticate' });
    await cliError(db(), ['authenticators', 'delete', account.email, 'totp'], 'confirmation_required');
    assert.equal((await cliJson(db(), ['authenticators', 'list', account.email])).authenticators.length, 2, 'nothing deleted unconfirmed');
    const deleted = await cliJson(db(), ['authenticators', 'delete', account.email, 'totp', '--yes']);
    assert.deepEqual(deleted.deleted.map((a: any) => a.type), ['totp', 'recovery_codes']);
    assert.deepEqual((await cliJson(db(), ['authenticators', 'list', account.email])).authenticators, []);
    assert.deepEqual(await loginStatus(server(), account.email, account.password), { status: 200, pending: undefined });
  });

  it('deletes by id, only what is named: the recovery codes alone leave TOTP in place', async () => {
    const account = await totpAccount(server(), 'app');
    const other = await totpAccount(server(), 'app');
    const [totp, codes] = (await cliJson(db(), ['authenticators', 'list', account.email])).authenticators;
    const othersTotp = (await cliJson(db(), ['authenticators', 'list', other.email])).authenticators[0];
    // Another user's authenticator is not this user's to delete.
    await cliError(db(), ['authenticators', 'delete', account.email, String(othersTotp.id), '--yes'], 'not_found');
    await cliError(db(), ['authenticators', 'delete', account.email, 'webauthn', '--yes'], 'not_found');
    assert.deepEqual((await cliJson(db(), ['authenticators', 'delete', account.email, String(codes.id), '--yes'])).deleted, [{ id: codes.id, type: 'recovery_codes' }]);
    assert.deepEqual((await cliJson(db(), ['authenticators', 'list', account.email])).authenticators.map((a: any) => a.id), [totp.id]);
    assert.deepEqual(await loginStatus(server(), account.email, account.password), { status: 401, pending: 'mfa_authenticate' });
    assert.equal((await cliJson(db(), ['authenticators', 'list', other.email])).authenticators.length, 2);
  });
});
