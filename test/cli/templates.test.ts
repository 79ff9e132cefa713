import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './support.js';

// `headless-auth templates`: no database is opened, so none is made for these.
const NO_DATABASE = 'sqlite::memory:';

test('templates list names every template, and which an override replaces', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'templates-cli-'));
  mkdirSync(join(dir, 'account/email'), { recursive: true });
  writeFileSync(join(dir, 'account/email/login_code_subject.txt'), 'Here is your code');
  try {
    const run = await runCli(NO_DATABASE, ['--json', 'templates', 'list'], { env: { TEMPLATES_DIR: dir } });
    assert.equal(run.status, 0, run.stderr);
    const names = run.json.templates.map((t: { name: string }) => t.name);
    for (const name of ['account/email/email_confirmation', 'mfa/email/webauthn_added', 'socialaccount/email/account_connected', 'account/sms/login_code.txt', 'idp/oidc/authorization_form.html']) {
      assert.ok(names.includes(name), name);
    }
    const loginCode = run.json.templates.find((t: { name: string }) => t.name === 'account/email/login_code');
    assert.equal(loginCode.files.find((f: { name: string }) => f.name.endsWith('_subject.txt')).source, join(dir, 'account/email/login_code_subject.txt'));
    assert.deepEqual(loginCode.variables, ['code']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('templates preview renders a mail with sample data, in a language, as text or HTML', async () => {
  const text = await runCli(NO_DATABASE, ['templates', 'preview', 'account/email/login_code', '--locale', 'de'], { env: { SITE_NAME: 'Acme' } });
  assert.equal(text.status, 0, text.stderr);
  assert.match(text.stdout, /^Subject: \[Acme\] Ihr Anmeldecode$/m);
  assert.match(text.stdout, /^K7QX-94DM$/m);
  const html = await runCli(NO_DATABASE, ['templates', 'preview', 'account/email/login_code', '--html']);
  assert.equal(html.status, 0, html.stderr);
  assert.match(html.stdout, /^<!DOCTYPE html>/);
  assert.match(html.stdout, /K7QX-94DM<\/td>/);
  const unknown = await runCli(NO_DATABASE, ['--json', 'templates', 'preview', 'account/email/nope']);
  assert.equal(unknown.status, 1);
  assert.equal(unknown.json.errors[0].code, 'not_found');
});
