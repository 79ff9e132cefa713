import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { ApiClient, type ApiResponse } from '../support/client.js';
import { freePort, startServerProcess, type ServerProcess } from '../support/process-server.js';
import { cliJson } from '../cli/support.js';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.js';
import { createTestDatabase, type TestDatabase } from '../support/databases.js';
import { codeFromMail, keyFromMail, mailsTo, nthMail, uniqueEmail } from '../support/accounts.js';
import { resetKeyFromMail } from '../account/helpers.js';
import { rsaPrivateKeyPem } from '../tokens/support.js';
import { Secret, TOTP } from 'otpauth';

// Issue 13 item 6 / issue 16: no password, key, code or token in a log line.
// A server process runs every flow that handles one (signup, verification,
// login, reset, login codes, JWT refresh, browser sessions and CSRF, TOTP
// setup and second factors) at the most verbose level; then every line it
// wrote, stdout and stderr alike, is searched for every secret the test sent
// or received.

describe('logs of a full run hold no secret', () => {
  let database: TestDatabase;
  let mail: SmtpSink;
  let server: ServerProcess;
  const secrets = new Map<string, string>();
  const keep = (label: string, value: unknown) => {
    if (typeof value === 'string' && value !== '') secrets.set(value, label);
  };
  const secretKey = randomBytes(36).toString('base64url');
  const privateKey = rsaPrivateKeyPem('log-secrets');
  let adminPort: number;

  before(async () => {
    database = await createTestDatabase('sqlite');
    mail = await startSmtpSink();
    adminPort = await freePort();
    server = await startServerProcess({
      ADMIN_PORT: String(adminPort),
      LOG_LEVEL: 'trace',
      DATABASE_URL: database.url,
      SMTP_URL: mail.url,
      SECRET_KEY: secretKey,
      ACCOUNT_RATE_LIMITS: 'false',
      ACCOUNT_EMAIL_VERIFICATION: 'mandatory',
      ACCOUNT_LOGIN_BY_CODE_ENABLED: 'true',
      HEADLESS_TOKEN_STRATEGY: 'jwt',
      HEADLESS_JWT_ALGORITHM: 'RS256',
      HEADLESS_JWT_PRIVATE_KEY: privateKey,
      // This process keeps real time: a TOTP code may reach it in the next period.
      MFA_TOTP_TOLERANCE: '1',
    });
    keep('SECRET_KEY', secretKey);
    // Each line of the PEM's body is a secret of its own.
    for (const line of privateKey.split('\n').filter((l) => l.length >= 40 && !l.startsWith('-----'))) keep('JWT private key', line);
  });
  after(async () => {
    await server?.stop();
    await mail?.close();
    await database?.drop();
  });

  /** Keeps every token a response hands out. */
  function collect(response: ApiResponse, client: ApiClient): ApiResponse {
    const { meta, data } = response.body ?? {};
    keep('session token', meta?.session_token);
    keep('access token', meta?.access_token ?? data?.access_token);
    keep('refresh token', meta?.refresh_token ?? data?.refresh_token);
    for (const [name, value] of client.cookies) keep(`cookie ${name}`, value);
    return response;
  }

  it('runs the flows, then finds none of their secrets in any line', async () => {
    const app = new ApiClient(server.baseUrl, 'app');
    const email = uniqueEmail('logs');
    const passwords = ['first secret passphrase', 'second secret passphrase', 'third secret passphrase'];
    passwords.forEach((p) => keep('password', p));
    keep('mistyped password', 'mistyped secret passphrase');

    // Signup and verification by link.
    assert.equal(collect(await app.post('/auth/signup', { email, password: passwords[0] }), app).status, 401);
    const verifyKey = keyFromMail(await nthMail(mail, email, 1));
    keep('verification key', verifyKey);
    const verified = collect(await app.post('/auth/email/verify', { key: verifyKey }), app);
    assert.equal(verified.status, 200);

    // Bearer lookups and a refresh.
    const bearer = { authorization: `Bearer ${verified.body.meta.access_token}` };
    assert.equal((await new ApiClient(server.baseUrl, 'app').get('/auth/session', bearer)).status, 200);
    assert.equal(collect(await app.post('/tokens/refresh', { refresh_token: verified.body.meta.refresh_token }), app).status, 200);

    // Password reset by link.
    const resetter = new ApiClient(server.baseUrl, 'app');
    assert.equal((await resetter.post('/auth/password/request', { email })).status, 200);
    const resetKey = resetKeyFromMail(await nthMail(mail, email, 2));
    keep('reset key', resetKey);
    assert.equal((await resetter.get('/auth/password/reset', { 'x-password-reset-key': resetKey })).status, 200);
    assert.equal(collect(await resetter.post('/auth/password/reset', { key: resetKey, password: passwords[1] }), resetter).status, 401);

    // Password logins, wrong and right.
    const login = new ApiClient(server.baseUrl, 'app');
    assert.equal((await login.post('/auth/login', { email, password: 'mistyped secret passphrase' })).status, 400);
    assert.equal(collect(await login.post('/auth/login', { email, password: passwords[1] }), login).status, 200);

    // Login by code, wrong and right.
    const byCode = new ApiClient(server.baseUrl, 'app');
    assert.equal(collect(await byCode.post('/auth/code/request', { email }), byCode).status, 401);
    const code = codeFromMail(await mail.waitForMail({ to: email, subjectIncludes: 'sign-in code' }));
    keep('login code', code);
    const wrongCode = code === 'ACDEFG' ? 'GFEDCA' : 'ACDEFG';
    keep('wrong code', wrongCode);
    assert.equal((await byCode.post('/auth/code/confirm', { code: wrongCode })).status, 400);
    assert.equal(collect(await byCode.post('/auth/code/confirm', { code }), byCode).status, 200);

    // A browser: CSRF token, session cookie, a password change, logout.
    const browser = new ApiClient(server.baseUrl, 'browser');
    collect(await browser.get('/config'), browser);
    assert.equal(collect(await browser.post('/auth/login', { email, password: passwords[1] }), browser).status, 200);
    assert.equal(collect(await browser.post('/account/password/change', { current_password: passwords[1], new_password: passwords[2] }), browser).status, 200);
    assert.equal(collect(await browser.delete('/auth/session'), browser).status, 401);

    // TOTP setup, a second factor wrong and right (a recovery code), and a reauthentication.
    const mfa = new ApiClient(server.baseUrl, 'app');
    assert.equal(collect(await mfa.post('/auth/login', { email, password: passwords[2] }), mfa).status, 200);
    const offer = await mfa.get('/account/authenticators/totp');
    keep('TOTP secret', offer.body.meta.secret);
    keep('TOTP URL', offer.body.meta.totp_url);
    const totp = (steps = 0) => TOTP.generate({ secret: Secret.fromBase32(offer.body.meta.secret), timestamp: Date.now() + steps * 30_000 });
    const activation = totp();
    keep('TOTP code', activation);
    assert.equal((await mfa.post('/account/authenticators/totp', { code: activation })).status, 200);
    const recovery: string[] = (await mfa.get('/account/authenticators/recovery-codes')).body.data.unused_codes;
    recovery.forEach((c) => keep('recovery code', c));
    const second = new ApiClient(server.baseUrl, 'app');
    assert.equal(collect(await second.post('/auth/login', { email, password: passwords[2] }), second).status, 401);
    const wrongTotp = totp(5);
    keep('wrong TOTP code', wrongTotp);
    assert.equal((await second.post('/auth/2fa/authenticate', { code: wrongTotp })).status, 400);
    assert.equal(collect(await second.post('/auth/2fa/authenticate', { code: recovery[0] }), second).status, 200);
    assert.equal((await second.post('/auth/2fa/reauthenticate', { code: recovery[1] })).status, 200);

    // The admin API: its key (made with the CLI), a password it sets, the reset link it mails.
    const made = await cliJson(database.url, ['admin-keys', 'create', '--name', 'logs', '--scope', 'write'], { env: { SECRET_KEY: secretKey } });
    keep('admin API key', made.key);
    keep('admin API key secret', made.key.slice(12));
    const admin = (method: string, path: string, body?: unknown, key = made.key) =>
      fetch(`http://127.0.0.1:${adminPort}/admin/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      }).then(async (r) => ({ status: r.status, body: await r.json() }));
    const found = await admin('GET', `/users?email=${encodeURIComponent(email)}`);
    assert.equal(found.status, 200);
    const userId = found.body.data[0].id;
    const adminPassword = 'password the admin set';
    keep('password set by the admin API', adminPassword);
    assert.equal((await admin('POST', `/users/${userId}/password`, { password: adminPassword })).status, 200);
    const mailed = mailsTo(mail, email).length;
    assert.equal((await admin('POST', `/users/${userId}/password-reset`)).status, 200);
    keep('reset key mailed by the admin API', resetKeyFromMail(await nthMail(mail, email, mailed + 1)));
    const wrongKey = `hak_${randomBytes(32).toString('base64url')}`;
    keep('unknown admin API key', wrongKey);
    assert.equal((await admin('GET', '/users', undefined, wrongKey)).status, 401);

    await server.stop();
    const output = server.output();
    const lines = output.split('\n').filter((line) => line.trim() !== '');
    // Not a vacuous search: the run logged its requests, as JSON lines only.
    const parsed = lines.map((line) => {
      try {
        return JSON.parse(line);
      } catch {
        assert.fail(`not a JSON line: ${line}`);
      }
    });
    assert.ok(parsed.filter((l) => l.msg === 'request').length >= 16, 'every request has its line');
    assert.ok(secrets.size >= 25, `collected ${secrets.size} secrets`);

    for (const line of lines) {
      for (const [secret, label] of secrets) {
        assert.ok(!line.includes(secret), `a ${label} is in the log: ${line}`);
      }
    }
  });
});
