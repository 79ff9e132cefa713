import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { createTestDatabase, type DatabaseKind } from '../support/databases.js';
import { TEST_SECRET } from '../support/server.js';
import { RUN_TYPESCRIPT } from '../support/typescript.js';

// The CLI as an operator runs it: `headless-auth` in a child process,
// configured by the environment, against a test database. Its source runs
// as TypeScript (RUN_TYPESCRIPT; bin/headless-auth.js runs the build of the
// same module).

const CLI = new URL('../../src/cli/main.ts', import.meta.url).pathname;

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
  /** stdout parsed, for runs with --json. */
  json: any;
}

export async function runCli(databaseUrl: string, args: string[], options: { stdin?: string; env?: Record<string, string> } = {}): Promise<CliRun> {
  const child = spawn(process.execPath, [...RUN_TYPESCRIPT, CLI, ...args], {
    env: { ...process.env, DATABASE_URL: databaseUrl, SECRET_KEY: TEST_SECRET, NODE_ENV: 'test', ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  child.stdin.end(options.stdin ?? '');
  const status = await new Promise<number | null>((resolve) => child.once('close', resolve));
  let json: any;
  try {
    json = JSON.parse(stdout);
  } catch {
    json = undefined;
  }
  return { status, stdout, stderr, json };
}

/** Runs with --json and asserts success. */
export async function cliJson(databaseUrl: string, args: string[], options: { stdin?: string; env?: Record<string, string> } = {}): Promise<any> {
  const run = await runCli(databaseUrl, ['--json', ...args], options);
  assert.equal(run.status, 0, `headless-auth ${args.join(' ')}: ${run.stdout}${run.stderr}`);
  return run.json;
}

/** Runs with --json and asserts the failure: exit status 1 and the first error's code. */
export async function cliError(databaseUrl: string, args: string[], code: string, options: { stdin?: string; env?: Record<string, string> } = {}): Promise<CliRun> {
  const run = await runCli(databaseUrl, ['--json', ...args], options);
  assert.equal(run.status, 1, `headless-auth ${args.join(' ')}: ${run.stdout}${run.stderr}`);
  assert.equal(run.json?.errors?.[0]?.code, code, run.stdout);
  assert.equal(typeof run.json.errors[0].message, 'string');
  return run;
}

// The django-allauth 65 fixture (see its README for every case and password),
// beside the checkout in ../shared, as .ci/run also arranges for its Node 24 copy.
export const FIXTURE = new URL('../../../shared/fixtures/allauth-65', import.meta.url).pathname;
export const DJANGO_SECRET_KEY = 'fixture-not-secret-allauth-65';

export interface AllauthCopy {
  url: string;
  /** Runs SQL on the copy (to age sessions, change rows). */
  exec(sql: string): Promise<void>;
  drop(): Promise<void>;
}

/**
 * A private copy of the fixture: the SQLite file copied, or the PostgreSQL
 * dump loaded into a fresh database. Its sessions are moved to expire two
 * weeks from now, so that they are live whatever day the test runs.
 */
export async function allauthCopy(kind: DatabaseKind): Promise<AllauthCopy> {
  let copy: AllauthCopy;
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'allauth-'));
    const path = join(dir, 'allauth.sqlite3');
    copyFileSync(join(FIXTURE, 'allauth.sqlite3'), path);
    copy = {
      url: `sqlite:${path}`,
      async exec(sql) {
        const db = new SQLite(path);
        try {
          db.exec(sql);
        } finally {
          db.close();
        }
      },
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  } else {
    const database = await createTestDatabase('postgres');
    const exec = async (sql: string) => {
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        await client.query(sql);
      } finally {
        await client.end();
      }
    };
    await exec(readFileSync(join(FIXTURE, 'allauth.postgres.sql'), 'utf8'));
    copy = { url: database.url, exec, drop: () => database.drop() };
  }
  await copy.exec(`UPDATE django_session SET expire_date = ${sqlTime(kind, Date.now() + 14 * 86_400_000)}`);
  return copy;
}

/** A time as SQL for the copy's dialect (Django's text form on SQLite). */
export function sqlTime(kind: DatabaseKind, millis: number): string {
  const iso = new Date(millis).toISOString();
  return kind === 'sqlite' ? `'${iso.replace('T', ' ').replace('Z', '000')}'` : `'${iso}'::timestamptz`;
}

/** A file holding the fixture's Django SECRET_KEY, for --django-secret-key-file. */
export function secretKeyFile(key = DJANGO_SECRET_KEY): { path: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'django-key-'));
  const path = join(dir, 'secret_key');
  writeFileSync(path, `${key}\n`, { mode: 0o600 });
  return { path, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
