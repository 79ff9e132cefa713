import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeEachDatabase, type TestServer } from '../support/server.js';
import { PASSWORD, uniqueEmail } from '../support/accounts.js';
import { cliError, cliJson, runCli } from '../cli/support.js';

// The admin commands record their changes (actor cli), and `audit list`
// shows the trail to people and scripts, filtered.

const NEW_PASSWORD = 'a password set by an admin';

async function signedUp(server: TestServer): Promise<{ id: number; email: string }> {
  const email = uniqueEmail('audit-cli');
  const response = await server.client('app').post('/auth/signup', { email, password: PASSWORD });
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return { id: response.body.data.user.id, email };
}

describeEachDatabase('audit CLI', { ACCOUNT_EMAIL_VERIFICATION: 'none' }, ({ server }) => {
  const url = () => (server().app.deps.config.databaseUrl);

  it("records the admin commands' changes as the cli's", async () => {
    const user = await signedUp(server());
    const other = await signedUp(server());
    await cliJson(url(), ['users', 'set-password', user.email, '--password-stdin'], { stdin: `${NEW_PASSWORD}\n` });
    await cliJson(url(), ['users', 'disable', user.email]);
    await cliJson(url(), ['users', 'enable', String(user.id)]);
    assert.equal((await server().client('app').post('/auth/login', { email: user.email, password: NEW_PASSWORD })).status, 200);
    await cliJson(url(), ['sessions', 'revoke', user.email, '--all']);
    const madeEmail = uniqueEmail('made');
    const created = await cliJson(url(), ['users', 'create', '--email', madeEmail, '--no-password']);
    await cliJson(url(), ['users', 'delete', user.email, '--yes']);

    // The deleted user's history stays listable by id.
    const { events } = await cliJson(url(), ['audit', 'list', '--user', String(user.id)]);
    assert.deepEqual(
      events.map((e: any) => e.type),
      ['account.deleted', 'session.revoked', 'login.succeeded', 'account.enabled', 'account.disabled', 'password.changed', 'login.succeeded', 'signup'],
    );
    const byCli = events.filter((e: any) => e.detail.actor === 'cli').map((e: any) => e.type);
    assert.deepEqual(byCli, ['account.deleted', 'session.revoked', 'account.enabled', 'account.disabled', 'password.changed']);
    for (const event of events) {
      assert.equal(event.user_id, user.id);
      assert.equal(event.outcome, 'success');
      assert.match(event.occurred_at, /^\d{4}-\d{2}-\d{2}T/);
    }
    assert.deepEqual(events.find((e: any) => e.type === 'session.revoked').detail, { sessions: 1, actor: 'cli' });
    assert.ok(!JSON.stringify(events).includes(NEW_PASSWORD));
    const made = await cliJson(url(), ['audit', 'list', '--user', `id:${created.id}`]);
    assert.equal(made.events.length, 1);
    const [signup] = made.events;
    assert.deepEqual(
      { type: signup.type, user_id: signup.user_id, ip: signup.ip, user_agent: signup.user_agent, outcome: signup.outcome, detail: signup.detail },
      { type: 'signup', user_id: created.id, ip: '', user_agent: '', outcome: 'success', detail: { email: madeEmail, actor: 'cli' } },
    );
    assert.ok(Math.abs(Date.parse(signup.occurred_at) - Date.now()) < 60_000);
    const others = await cliJson(url(), ['audit', 'list', '--user', other.email]);
    assert.deepEqual(others.events.map((e: any) => e.type), ['login.succeeded', 'signup']);
  });

  it('filters by type, time and count, pages with --before, and prints a table', async () => {
    const user = await signedUp(server());
    for (let i = 0; i < 3; i++) assert.equal((await server().client('app').post('/auth/login', { email: user.email, password: 'wrong password' })).status, 400);
    const failed = await cliJson(url(), ['audit', 'list', '--user', user.email, '--type', 'login.failed']);
    assert.equal(failed.events.length, 3);
    assert.ok(failed.events.every((e: any) => e.type === 'login.failed' && e.outcome === 'failure' && e.detail.reason === 'invalid_password'));
    const both = await cliJson(url(), ['audit', 'list', '--user', user.email, '--type', 'login.failed,signup']);
    assert.equal(both.events.length, 4);
    const repeated = await cliJson(url(), ['audit', 'list', '--user', user.email, '--type', 'signup', '--type', 'login.succeeded']);
    assert.deepEqual(repeated.events.map((e: any) => e.type), ['login.succeeded', 'signup']);

    const page = await cliJson(url(), ['audit', 'list', '--user', user.email, '--limit', '2']);
    assert.equal(page.events.length, 2);
    assert.equal(page.next_before, page.events[1].id);
    const rest = await cliJson(url(), ['audit', 'list', '--user', user.email, '--before', String(page.next_before)]);
    assert.equal(rest.events.length, 3);
    assert.equal(rest.next_before, null);

    assert.equal((await cliJson(url(), ['audit', 'list', '--user', user.email, '--since', '1h'])).events.length, 5);
    assert.equal((await cliJson(url(), ['audit', 'list', '--user', user.email, '--since', '2999-01-01'])).events.length, 0);

    const text = await runCli(url(), ['audit', 'list', '--user', user.email, '--type', 'login.failed']);
    assert.equal(text.status, 0, text.stderr);
    const lines = text.stdout.trim().split('\n');
    assert.match(lines[0]!, /^ID\s+TIME\s+TYPE\s+OUTCOME\s+USER\s+IP\s+DETAIL\s+USER AGENT$/);
    assert.equal(lines.length, 4);
    assert.match(lines[1]!, /login\.failed\s+failure\s+\d+\s+127\.0\.0\.1\s+method=password identifier=\S+ reason=invalid_password/);
  });

  it('refuses unknown types, bad times and unknown users', async () => {
    const badType = await runCli(url(), ['audit', 'list', '--type', 'login.maybe']);
    assert.equal(badType.status, 1);
    assert.match(badType.stderr, /not an event type/);
    const badTime = await runCli(url(), ['audit', 'list', '--since', 'yesterday']);
    assert.equal(badTime.status, 1);
    assert.match(badTime.stderr, /time ago/);
    await cliError(url(), ['audit', 'list', '--user', 'nobody@example.com'], 'not_found');
    const help = await runCli(url(), ['audit', 'list', '--help']);
    assert.equal(help.status, 0);
    assert.match(help.stdout, /--since <when>/);
    assert.match(help.stdout, /refresh_token\.reused/);
  });

  it('lists webhook deliveries (none when webhooks are off)', async () => {
    assert.deepEqual(await cliJson(url(), ['audit', 'webhooks']), { deliveries: [] });
    const text = await runCli(url(), ['audit', 'webhooks', '--status', 'failed']);
    assert.equal(text.stdout.trim(), 'no webhook deliveries');
  });
});
