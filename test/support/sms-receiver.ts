import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';

// Real HTTP peers for the SMS senders: a webhook receiver that checks the
// signature as a gateway would, and an impersonation of Twilio's Messages
// endpoint. Tests read the codes from what they received.

export type ReceivedSms = { to: string; message: string };

export interface SmsInbox {
  /** Accepted messages, oldest first. */
  messages: ReceivedSms[];
  /** Resolves with the next message to `to` not yet taken, waiting up to `timeoutMs`. */
  next(to: string, timeoutMs?: number): Promise<ReceivedSms>;
  /** How many messages `to` has received. */
  countTo(to: string): number;
  clear(): void;
}

export interface SmsReceiver extends SmsInbox {
  url: string;
  secret: string;
  /** Requests refused for a missing or wrong signature. */
  rejected: number;
  /** While set, every request is answered with this status and not recorded. */
  failWith: number | null;
  close(): Promise<void>;
}

/** The code in a message: it stands on a line of its own. */
export function codeIn(sms: ReceivedSms): string {
  const line = sms.message.split('\n').find((l) => /^[A-Z0-9]{6,}$/.test(l.trim()));
  if (!line) throw new Error(`no code in SMS: ${JSON.stringify(sms.message)}`);
  return line.trim();
}

function inbox(): SmsInbox & { add(sms: ReceivedSms): void } {
  const messages: ReceivedSms[] = [];
  const taken = new Set<ReceivedSms>();
  let waiters: Array<{ to: string; resolve: (sms: ReceivedSms) => void }> = [];
  return {
    messages,
    add(sms) {
      messages.push(sms);
      const waiter = waiters.find((w) => w.to === sms.to);
      if (waiter) {
        waiters = waiters.filter((w) => w !== waiter);
        taken.add(sms);
        waiter.resolve(sms);
      }
    },
    next(to, timeoutMs = 5000) {
      const found = messages.find((m) => m.to === to && !taken.has(m));
      if (found) {
        taken.add(found);
        return Promise.resolve(found);
      }
      return new Promise((resolve, reject) => {
        const waiter = {
          to,
          resolve: (sms: ReceivedSms) => {
            clearTimeout(timer);
            resolve(sms);
          },
        };
        const timer = setTimeout(() => {
          waiters = waiters.filter((w) => w !== waiter);
          reject(new Error(`no SMS to ${to} within ${timeoutMs} ms; received: ${JSON.stringify(messages.map((m) => m.to))}`));
        }, timeoutMs);
        waiters.push(waiter);
      });
    },
    countTo: (to) => messages.filter((m) => m.to === to).length,
    clear() {
      messages.length = 0;
      taken.clear();
    },
  };
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

async function listen(handler: (request: IncomingMessage, response: ServerResponse) => Promise<void>) {
  const server = createServer((request, response) => {
    handler(request, response).catch(() => {
      response.statusCode = 500;
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A gateway for SMS_BACKEND=webhook, checking as a receiver should:
 * `X-Signature: sha256=<hex>` over `<X-Signature-Timestamp>.<raw body>`, and
 * a timestamp at most five minutes from now.
 */
export async function startSmsReceiver(secret = 'sms-webhook-secret-for-tests-0123'): Promise<SmsReceiver> {
  const box = inbox();
  const receiver: Omit<SmsReceiver, keyof SmsInbox | 'url' | 'close'> = { secret, rejected: 0, failWith: null };
  const { port, close } = await listen(async (request, response) => {
    const body = await readBody(request);
    if (receiver.failWith !== null) {
      response.statusCode = receiver.failWith;
      return void response.end('{"error":"down"}');
    }
    const timestamp = String(request.headers['x-signature-timestamp'] ?? '');
    const fresh = /^\d+$/.test(timestamp) && Math.abs(Date.now() / 1000 - Number(timestamp)) <= 300;
    const signed = Buffer.concat([Buffer.from(`${timestamp}.`), body]);
    const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(signed).digest('hex')}`);
    const given = Buffer.from(String(request.headers['x-signature'] ?? ''));
    if (request.method !== 'POST' || !fresh || given.length !== expected.length || !timingSafeEqual(given, expected)) {
      receiver.rejected++;
      response.statusCode = 401;
      return void response.end();
    }
    const parsed = JSON.parse(body.toString('utf8')) as ReceivedSms;
    if (Object.keys(parsed).sort().join() !== 'message,to') throw new Error('unexpected fields');
    box.add({ to: parsed.to, message: parsed.message });
    response.statusCode = 204;
    response.end();
  });
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${port}/sms`,
    messages: box.messages,
    next: box.next,
    countTo: box.countTo,
    clear: box.clear,
    close,
  }) as SmsReceiver;
}

export interface FakeTwilio extends SmsInbox {
  baseUrl: string;
  accountSid: string;
  authToken: string;
  from: string;
  /** Requests refused for wrong credentials or a wrong path. */
  rejected: number;
  close(): Promise<void>;
}

/**
 * Twilio's `POST /2010-04-01/Accounts/{sid}/Messages.json` as the real API
 * answers it: basic auth with the account SID and auth token, a form body
 * with To, From and Body, 201 with the message resource, or an error object
 * (21211 for an invalid "To").
 */
export async function startFakeTwilio(): Promise<FakeTwilio> {
  const box = inbox();
  const accountSid = `AC${'0123456789abcdef'.repeat(2)}`;
  const authToken = 'twilio-test-auth-token';
  const from = '+14155550100';
  const state = { rejected: 0 };
  const { port, close } = await listen(async (request, response) => {
    const body = (await readBody(request)).toString('utf8');
    response.setHeader('content-type', 'application/json');
    const expectedAuth = `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`;
    if (request.method !== 'POST' || request.url !== `/2010-04-01/Accounts/${accountSid}/Messages.json` || request.headers.authorization !== expectedAuth) {
      state.rejected++;
      response.statusCode = 401;
      return void response.end(JSON.stringify({ code: 20003, message: 'Authenticate', status: 401 }));
    }
    const form = new URLSearchParams(body);
    const to = form.get('To') ?? '';
    if (!/^\+[1-9]\d{6,14}$/.test(to) || to.startsWith('+1555')) {
      response.statusCode = 400;
      return void response.end(JSON.stringify({ code: 21211, message: `The 'To' number ${to} is not a valid phone number.`, status: 400 }));
    }
    if (form.get('From') !== from) {
      response.statusCode = 400;
      return void response.end(JSON.stringify({ code: 21212, message: 'Invalid From Number', status: 400 }));
    }
    box.add({ to, message: form.get('Body') ?? '' });
    response.statusCode = 201;
    response.end(JSON.stringify({ sid: `SM${'0'.repeat(32)}`, status: 'queued', to, from, body: form.get('Body') }));
  });
  return Object.assign(state, {
    baseUrl: `http://127.0.0.1:${port}`,
    accountSid,
    authToken,
    from,
    messages: box.messages,
    next: box.next,
    countTo: box.countTo,
    clear: box.clear,
    close,
  }) as FakeTwilio;
}
