import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { Command } from 'commander';
import { buildProgram } from '../../src/cli/program.js';
import { createTestDatabase, type TestDatabase } from '../support/databases.js';
import { FIXTURE, cliError, cliJson, runCli } from './support.js';

// What holds for every command whatever the database: help, settings,
// migrations, and refusals before any work.

function commandsOf(command: Command): Command[] {
  return command.commands.flatMap((c) => [c, ...commandsOf(c)]);
}

describe('admin CLI basics', () => {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase('sqlite');
  });
  after(async () => {
    await database?.drop();
  });

  it('every command has a description and a help page', async () => {
    const all = commandsOf(await buildProgram());
    assert.ok(all.length >= 18, `${all.length} commands`);
    for (const command of all) {
      assert.ok(command.description().length > 10, command.name());
      const help = command.helpInformation();
      assert.match(help, /^Usage: headless-auth /, command.name());
      assert.match(help, /--json/, `${command.name()} shows the global --json option`);
    }
  });

  it('`npx headless-auth --help` works in a checkout', async () => {
    const child = spawn('npx', ['--offline', 'headless-auth', '--help'], { cwd: new URL('../..', import.meta.url).pathname, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    const status = await new Promise((resolve) => child.once('close', resolve));
    assert.equal(status, 0);
    assert.match(stdout, /^Usage: headless-auth /);
    for (const group of ['users', 'emails', 'sessions', 'migrate', 'import']) assert.match(stdout, new RegExp(`\\n  ${group}\\b`));
  });

  it('applies migrations, and other commands refuse an unmigrated database', async () => {
    await cliError(database.url, ['users', 'list'], 'migrations_pending');
    const status = await cliJson(database.url, ['migrate', '--status']);
    assert.ok(status.migrations.length > 0 && status.migrations.every((m: any) => m.applied_at === null));
    const applied = await cliJson(database.url, ['migrate']);
    assert.deepEqual(applied.applied, status.migrations.map((m: any) => m.name));
    assert.deepEqual(await cliJson(database.url, ['migrate']), { applied: [] });
  });

  it('a bad setting stops it with an error naming the variable', async () => {
    const run = await cliError('mysql://localhost/auth', ['users', 'list'], 'config_error');
    assert.match(run.json.errors[0].message, /DATABASE_URL/);
  });

  it('refuses bad input before touching anything', async () => {
    await cliError(database.url, ['users', 'create', '--email', 'not an address', '--no-password'], 'invalid');
    await cliError(database.url, ['users', 'create', '--no-password'], 'required');
    await cliError(database.url, ['import', 'allauth', 'mysql://localhost/allauth'], 'source_error');
    await cliError(database.url, ['import', 'allauth', 'sqlite:/nonexistent/allauth.sqlite3'], 'source_error');
    await cliError(database.url, ['import', 'allauth', database.url], 'source_error');
    await cliError(database.url, ['import', 'allauth', `sqlite:${FIXTURE}/allauth.sqlite3`, '--user-table', 'no_such_table'], 'source_error');
    const unknown = await runCli(database.url, ['users', 'frobnicate']);
    assert.equal(unknown.status, 1);
  });
});
