import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { createServer as createHttpServer, type IncomingHttpHeaders } from 'node:http';
import { createServer } from 'node:net';
import { ConfigError, loadConfig } from '../../src/config/config.js';
import { readSmsSettings } from '../../src/config/sms.js';
import { createSmsSender } from '../../src/messaging/sms/sender.js';
import { codeIn, startFakeTwilio, startSmsReceiver, type FakeTwilio, type SmsReceiver } from '../support/sms-receiver.js';

// The three senders against real local peers: a webhook receiver that checks
// signatures, and a server impersonating Twilio's Messages endpoint.

const TO = '+14155552671';
const MESSAGE = 'Headless Auth: your code is\nACDEFG\nIgnore this if you did not ask.';

function failsWith(error: unknown, pattern: RegExp): boolean {
  assert.ok(error instanceof Error);
  assert.match(error.message, pattern);
  return true;
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('webhook SMS sender', () => {
  let receiver: SmsReceiver;
  before(async () => {
    receiver = await startSmsReceiver();
  });
  after(() => receiver.close());

  const sender = (url = receiver.url, secret = receiver.secret) =>
    createSmsSender(readSmsSettings({ SMS_BACKEND: 'webhook', SMS_WEBHOOK_URL: url, SMS_WEBHOOK_SECRET: secret }), () => {});

  it('posts {to, message} with an HMAC-SHA256 signature of timestamp and body', async () => {
    await sender().send({ to: TO, message: MESSAGE });
    const received = await receiver.next(TO);
    assert.deepEqual(received, { to: TO, message: MESSAGE });
    assert.equal(codeIn(received), 'ACDEFG');
    assert.equal(receiver.rejected, 0);
  });

  it('signs the current time together with the body, so receivers can refuse replays', async () => {
    const captured: { headers: IncomingHttpHeaders; body: string }[] = [];
    const capture = createHttpServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        captured.push({ headers: request.headers, body });
        response.statusCode = 204;
        response.end();
      });
    });
    await new Promise<void>((resolve) => capture.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = capture.address() as { port: number };
      await sender(`http://127.0.0.1:${port}/sms`).send({ to: TO, message: MESSAGE });
    } finally {
      await new Promise((resolve) => capture.close(resolve));
    }
    const [{ headers, body }] = captured as [(typeof captured)[number]];
    const timestamp = Number(headers['x-signature-timestamp']);
    assert.ok(Math.abs(Date.now() / 1000 - timestamp) < 5, `timestamp ${timestamp}`);
    const hmac = (material: string) => `sha256=${createHmac('sha256', receiver.secret).update(material).digest('hex')}`;
    assert.equal(headers['x-signature'], hmac(`${timestamp}.${body}`));
  });

  it('is refused by a receiver holding another secret', async () => {
    await assert.rejects(sender(receiver.url, 'a-different-secret-of-enough-length').send({ to: TO, message: MESSAGE }), (e) => failsWith(e, /401/));
    assert.equal(receiver.rejected, 1);
  });

  it('rejects when the gateway fails or cannot be reached', async () => {
    receiver.failWith = 500;
    try {
      await assert.rejects(sender().send({ to: TO, message: MESSAGE }), (e) => failsWith(e, /500/));
    } finally {
      receiver.failWith = null;
    }
    await assert.rejects(sender(`http://127.0.0.1:${await closedPort()}/sms`).send({ to: TO, message: MESSAGE }));
  });
});

describe('Twilio SMS sender', () => {
  let twilio: FakeTwilio;
  before(async () => {
    twilio = await startFakeTwilio();
  });
  after(() => twilio.close());

  const sender = (token = twilio.authToken) =>
    createSmsSender(
      readSmsSettings({
        SMS_BACKEND: 'twilio',
        TWILIO_ACCOUNT_SID: twilio.accountSid,
        TWILIO_AUTH_TOKEN: token,
        TWILIO_FROM_NUMBER: twilio.from,
        TWILIO_API_BASE_URL: twilio.baseUrl,
      }),
      () => {},
    );

  it('creates a message through the Messages resource', async () => {
    await sender().send({ to: TO, message: MESSAGE });
    assert.deepEqual(await twilio.next(TO), { to: TO, message: MESSAGE });
    assert.equal(twilio.rejected, 0);
  });

  it('rejects on wrong credentials and on Twilio errors, naming the error code', async () => {
    await assert.rejects(sender('wrong-token').send({ to: TO, message: MESSAGE }), (e) => failsWith(e, /401.*20003/));
    await assert.rejects(sender().send({ to: '+15550100', message: MESSAGE }), (e) => failsWith(e, /400.*21211/));
  });
});

describe('console SMS sender', () => {
  it('writes the message to the log as one record', async () => {
    const records: Array<Record<string, any>> = [];
    await createSmsSender(readSmsSettings({}), (fields) => records.push(fields), true).send({ to: TO, message: MESSAGE });
    assert.equal(records.length, 1);
    assert.equal(records[0]!.sms.to, TO);
    assert.ok(records[0]!.sms.message.includes('ACDEFG'));
  });

  it('without showBodies (production) logs the recipient only', async () => {
    const records: Array<Record<string, any>> = [];
    await createSmsSender(readSmsSettings({}), (fields) => records.push(fields)).send({ to: TO, message: MESSAGE });
    assert.deepEqual(records, [{ sms: { to: TO } }]);
  });
});

describe('SMS settings', () => {
  const SECRET_KEY = 'test-secret-key-that-is-long-enough-0123456789';
  function rejects(env: Record<string, string>, variable: string): void {
    assert.throws(
      () => loadConfig({ SECRET_KEY, ...env }),
      (error: unknown) => error instanceof ConfigError && error.message.includes(variable),
    );
  }

  it('defaults to the console sender', () => {
    assert.equal(loadConfig({ SECRET_KEY }).sms.backend, 'console');
  });

  it('names the variable that is missing or wrong', () => {
    rejects({ SMS_BACKEND: 'carrier-pigeon' }, 'SMS_BACKEND');
    rejects({ SMS_BACKEND: 'webhook', SMS_WEBHOOK_SECRET: 'x'.repeat(32) }, 'SMS_WEBHOOK_URL');
    rejects({ SMS_BACKEND: 'webhook', SMS_WEBHOOK_URL: 'ftp://gateway/sms', SMS_WEBHOOK_SECRET: 'x'.repeat(32) }, 'SMS_WEBHOOK_URL');
    rejects({ SMS_BACKEND: 'webhook', SMS_WEBHOOK_URL: 'https://gateway/sms' }, 'SMS_WEBHOOK_SECRET');
    rejects({ SMS_BACKEND: 'webhook', SMS_WEBHOOK_URL: 'https://gateway/sms', SMS_WEBHOOK_SECRET: 'short' }, 'SMS_WEBHOOK_SECRET');
    rejects({ SMS_BACKEND: 'twilio', TWILIO_AUTH_TOKEN: 't', TWILIO_FROM_NUMBER: '+14155550100' }, 'TWILIO_ACCOUNT_SID');
    rejects({ SMS_BACKEND: 'twilio', TWILIO_ACCOUNT_SID: 'AC123', TWILIO_AUTH_TOKEN: 't', TWILIO_FROM_NUMBER: '+14155550100' }, 'TWILIO_ACCOUNT_SID');
    rejects({ SMS_BACKEND: 'twilio', TWILIO_ACCOUNT_SID: `AC${'a'.repeat(32)}`, TWILIO_FROM_NUMBER: '+14155550100' }, 'TWILIO_AUTH_TOKEN');
    rejects({ SMS_BACKEND: 'twilio', TWILIO_ACCOUNT_SID: `AC${'a'.repeat(32)}`, TWILIO_AUTH_TOKEN: 't' }, 'TWILIO_FROM_NUMBER');
  });

  it('keeps secrets out of error messages', () => {
    assert.throws(
      () => loadConfig({ SECRET_KEY, SMS_BACKEND: 'webhook', SMS_WEBHOOK_URL: 'https://gateway/sms', SMS_WEBHOOK_SECRET: 'leaky' }),
      (error: unknown) => error instanceof Error && !error.message.includes('leaky'),
    );
  });

  it('accepts phone as a login method, warning (as the reference does) when no login method is a required signup field', () => {
    const optional = loadConfig({ SECRET_KEY, ACCOUNT_LOGIN_METHODS: 'phone', ACCOUNT_SIGNUP_FIELDS: 'phone,password1*' });
    assert.equal(optional.warnings.length, 1);
    assert.match(optional.warnings[0]!, /ACCOUNT_SIGNUP_FIELDS/);
    const config = loadConfig({ SECRET_KEY, ACCOUNT_LOGIN_METHODS: 'email,phone', ACCOUNT_SIGNUP_FIELDS: 'email*,phone*,password1*' });
    assert.deepEqual(config.account.loginMethods, ['email', 'phone']);
    assert.equal(config.account.phone.verificationEnabled, true);
    assert.equal(config.account.phone.maxAttempts, 3);
    assert.deepEqual(config.warnings, []);
  });
});
