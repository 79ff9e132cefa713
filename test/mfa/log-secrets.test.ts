import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { ApiClient, type ApiResponse } from '../support/client.js';
import { startServerProcess, type ServerProcess } from '../support/process-server.js';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.js';
import { createTestDatabase, type TestDatabase } from '../support/databases.js';
import { keyFromMail, nthMail, uniqueEmail } from '../support/accounts.js';

// No TOTP secret, code or recovery code in a log line: a server process runs
// MFA setup and logins at the most verbose level, then every line it wrote
// is searched for every secret the test sent or received.

describe('logs of an MFA run hold no secret', () => {
  let database: TestDatabase;
  let mail: SmtpSink;
  let server: ServerProcess;
  const secrets = new Map<string, string>();
  const keep = (label: string, value: unknown) => {
    if (typeof value === 'string' && value !== '') secrets.set(value, label);
  };

  before(async () => {
    database = await createTestDatabase('sqlite');
    mail = await startSmtpSink();
    server = await startServerProcess({ LOG_LEVEL: 'trace', DATABASE_URL: database.url, SMTP_URL: mail.url, SECRET_KEY: randomBytes(36).toString('base64url'), ACCOUNT_RATE_LIMITS: 'false',
      // This process keeps real time: a code may reach it in the next period.
      MFA_TOTP_TOLERANCE: '1',
    });
  });
  after(async () => {
    await server?.stop();
    await mail?.close();
    await database?.drop();
  });

  function collect(response: ApiResponse): ApiResponse {
    keep('session token', response.body?.meta?.session_token);
    return response;
  }

  it('sets up TOTP, logs in with a code and a recovery code, and logs none of them', async () => {
    const password = 'an mfa secret passphrase';
    keep('password', password);
    const email = uniqueEmail('mfa-logs');
    const app = new ApiClient(server.baseUrl, 'app');
    assert.equal(collect(await app.post('/auth/signup', { email, password })).status, 200);
    const key = keyFromMail(await nthMail(mail, email, 1));
    keep('verification key', key);
    assert.equal((await app.post('/auth/email/verify', { key })).status, 200);
    assert.equal((await app.post('/auth/reauthenticate', { password })).status, 200);

    const offer = await app.get('/account/authenticators/totp');
    const secret = offer.body.meta.secret;
    keep('TOTP secret', secret);
    keep('TOTP URL', offer.body.meta.totp_url);
    const code = (offset = 0) => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: Date.now() + offset * 30_000 });
    const first = code();
    keep('TOTP code', first);
    assert.equal((await app.post('/account/authenticators/totp', { code: first })).status, 200);
    const codes: string[] = (await app.get('/account/authenticators/recovery-codes')).body.data.unused_codes;
    codes.forEach((c) => keep('recovery code', c));

    const login = new ApiClient(server.baseUrl, 'app');
    assert.equal(collect(await login.post('/auth/login', { email, password })).status, 401);
    const wrong = code(5);
    keep('wrong TOTP code', wrong);
    assert.equal((await login.post('/auth/2fa/authenticate', { code: wrong })).status, 400);
    assert.equal((await login.post('/auth/2fa/authenticate', { code: codes[0] })).status, 200);
    assert.equal((await login.post('/auth/2fa/reauthenticate', { code: codes[1] })).status, 200);

    await server.stop();
    const lines = server.output().split('\n').filter((line) => line.trim() !== '');
    assert.ok(lines.filter((line) => JSON.parse(line).msg === 'request').length >= 10, 'every request has its line');
    for (const line of lines) {
      for (const [value, label] of secrets) assert.ok(!line.includes(value), `a ${label} is in the log: ${line}`);
    }
  });
});
