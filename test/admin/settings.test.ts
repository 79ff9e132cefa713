import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { generateKeyPairSync } from 'node:crypto';
import { startTestServer, type TestServer } from '../support/server.js';
import { uniqueEmail } from '../support/accounts.js';
import { startReceiver, until, webhookSecret, type Receiver } from '../audit/support.js';
import { AdminClient, adminUrl, newKey } from './support.js';
import { loadConfig } from '../../src/config/config.js';
import { SETTING_GROUPS, settingsInForce } from '../../src/flows/admin/settings.js';
import { MASK, maskSetting } from '../../src/flows/admin/settings-masking.js';

// GET /settings shows the settings in force and never a secret: the server
// here starts with known secret values, and none of them may appear
// anywhere in the answer (nor in the webhook deliveries' URLs).

const DOCS = readFileSync(new URL('../../docs/settings.md', import.meta.url), 'utf8');
// The first cell of each row of the table names one variable or a few.
const documented = [...DOCS.matchAll(/^\| (`[A-Z0-9_]+`(?:, `[A-Z0-9_]+`)*) \|/gm)].flatMap((m) => [...m[1]!.matchAll(/`([A-Z0-9_]+)`/g)].map((n) => n[1]!));

describe('the settings the admin API shows', () => {
  it('are the variables docs/settings.md documents, each in one group', () => {
    const grouped = SETTING_GROUPS.flatMap((g) => g.names);
    assert.equal(new Set(grouped).size, grouped.length, 'a name in two groups');
    assert.deepEqual([...grouped].sort(), [...documented].sort());
  });

  it('hide secrets whole, and passwords, tokens and keys inside values', () => {
    const hidden = (name: string, raw: string) => assert.deepEqual(maskSetting(name, raw), { value: null, masked: true }, name);
    hidden('SECRET_KEY', 'x'.repeat(40));
    hidden('MFA_TOTP_INSECURE_BYPASS_CODE', '123456');
    hidden('SOME_API_KEY', 'abc');
    hidden('A_NEW_PASSWORD', 'hunter2hunter2');
    hidden('ACCOUNT_PROFILE_SCHEMA', '{not json');
    hidden('TEMPLATES_DIR', '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----');
    assert.deepEqual(maskSetting('MFA_PASSKEY_LOGIN_ENABLED', 'true'), { value: 'true', masked: false });
    assert.deepEqual(maskSetting('HEADLESS_JWT_ACCESS_TOKEN_EXPIRES_IN', '300'), { value: '300', masked: false });
    assert.deepEqual(maskSetting('SITE_NAME', 'Example'), { value: 'Example', masked: false });
    assert.deepEqual(maskSetting('SMTP_URL', 'smtps://mailer:s3cret@smtp.example.com:465'), { value: `smtps://mailer:${MASK}@smtp.example.com:465`, masked: true });
    assert.deepEqual(maskSetting('REDIS_URL', 'redis://:r3dis@cache:6379/0'), { value: `redis://:${MASK}@cache:6379/0`, masked: true });
    assert.deepEqual(maskSetting('WEBHOOK_URLS', 'https://tok3n@hooks.example.com/a,https://hooks.example.com/b?sig=1&api_key=k3y'), {
      value: `https://${MASK}@hooks.example.com/a,https://hooks.example.com/b?sig=1&api_key=${MASK}`,
      masked: true,
    });
    const providers = maskSetting('SOCIALACCOUNT_PROVIDERS', JSON.stringify({ github: { APPS: [{ client_id: 'gh-id', secret: 'gh-s3cret', key: '' }] } }));
    assert.equal(providers.value, JSON.stringify({ github: { APPS: [{ client_id: 'gh-id', secret: MASK, key: MASK }] } }));
  });

  it('read from the parsed environment: database, Redis and SMTP passwords never show', () => {
    const config = loadConfig({
      SECRET_KEY: 'sk-0123456789-0123456789-0123456789',
      DATABASE_URL: 'postgres://auth:pg-pass-4711@db.internal:5432/auth?sslmode=require',
      REDIS_URL: 'redis://default:redis-pass-4711@cache.internal:6379',
      SMTP_URL: 'smtp://mailer:smtp-pass-4711@smtp.internal:587',
      SITE_NAME: 'Example',
      UNRELATED_SECRET_OF_ANOTHER_PROGRAM: 'other-4711',
    });
    const text = JSON.stringify(settingsInForce(config));
    for (const secret of ['sk-0123456789', 'pg-pass-4711', 'redis-pass-4711', 'smtp-pass-4711', 'other-4711']) assert.equal(text.includes(secret), false, secret);
    assert.ok(text.includes('db.internal:5432/auth?sslmode=require'), 'the rest of the URL shows');
    assert.equal(text.includes('UNRELATED_SECRET_OF_ANOTHER_PROGRAM'), false, 'only documented variables are shown');
  });
});

describe('GET /settings on a server started with secrets', () => {
  const hookSecret = webhookSecret();
  const jwtKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  let receiver: Receiver;
  let server: TestServer;
  let reader: AdminClient;
  let env: Record<string, string>;
  before(async () => {
    receiver = await startReceiver({ answer: 500 });
    const hookUrl = new URL(receiver.url);
    hookUrl.username = 'hookuser';
    hookUrl.password = 'hook-pass-4711';
    env = {
      ADMIN_PORT: '0',
      SECRET_KEY: 'secret-key-4711-secret-key-4711-secret-key-4711',
      SECRET_KEY_FALLBACKS: 'fallback-4711-fallback-4711-fallback-4711',
      WEBHOOK_URLS: `${hookUrl.href}?token=query-token-4711`,
      WEBHOOK_SECRET: hookSecret.setting,
      WEBHOOK_MAX_ATTEMPTS: '1',
      WEBHOOK_POLL_INTERVAL_MS: '20',
      SOCIALACCOUNT_PROVIDERS: JSON.stringify({ github: { APPS: [{ client_id: 'gh-client', secret: 'gh-secret-4711' }] } }),
      SMS_BACKEND: 'webhook',
      SMS_WEBHOOK_URL: 'https://sms.example.com/send',
      SMS_WEBHOOK_SECRET: 'sms-secret-4711-4711',
      HEADLESS_TOKEN_STRATEGY: 'jwt',
      HEADLESS_JWT_ALGORITHM: 'RS256',
      HEADLESS_JWT_PRIVATE_KEY: jwtKey,
      MFA_TOTP_INSECURE_BYPASS_CODE: '471147',
      SITE_NAME: 'Settings test',
    };
    server = await startTestServer('sqlite', env);
    reader = new AdminClient(await adminUrl(server), (await newKey(server, 'read')).secret);
  });
  after(async () => {
    await server?.close();
    await receiver?.close();
  });

  const SECRETS = () => ['secret-key-4711', 'fallback-4711', 'hook-pass-4711', 'query-token-4711', hookSecret.setting, hookSecret.setting.slice(6), 'gh-secret-4711', 'sms-secret-4711', jwtKey.split('\n')[1]!, '471147'];

  it('shows every setting in its group, the secrets masked', async () => {
    const answer = await reader.get('/settings');
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const text = JSON.stringify(answer.body);
    for (const secret of SECRETS()) assert.equal(text.includes(secret), false, `a secret shows: ${secret.slice(0, 12)}…`);
    const byName = new Map(answer.body.data.flatMap((g: any) => g.settings.map((s: any) => [s.name, { ...s, group: g.id }])));
    assert.deepEqual(byName.get('SITE_NAME'), { name: 'SITE_NAME', set: true, value: 'Settings test', masked: false, group: 'branding' });
    assert.deepEqual(byName.get('SECRET_KEY'), { name: 'SECRET_KEY', set: true, value: null, masked: true, group: 'security' });
    assert.deepEqual(byName.get('LOG_LEVEL'), { name: 'LOG_LEVEL', set: false, value: null, masked: false, group: 'server' });
    const hooks = byName.get('WEBHOOK_URLS') as any;
    assert.equal(hooks.masked, true);
    assert.ok(hooks.value.includes(`hookuser:${MASK}@127.0.0.1`), hooks.value);
    assert.match((byName.get('SOCIALACCOUNT_PROVIDERS') as any).value, /gh-client/);
  });

  it("masks the password in a delivery's URL", async () => {
    const writer = new AdminClient(reader.baseUrl, (await newKey(server, 'write')).secret);
    assert.equal((await writer.post('/users', { email: uniqueEmail('settings') })).status, 201);
    const failed = await until('a delivery failed', async () => (await reader.get('/webhook-deliveries?status=failed')).body.data[0]);
    assert.ok(failed.url.includes(`hookuser:${MASK}@`), failed.url);
    const text = JSON.stringify((await reader.get('/webhook-deliveries?status=failed')).body);
    for (const secret of SECRETS()) assert.equal(text.includes(secret), false, secret.slice(0, 12));
  });
});
