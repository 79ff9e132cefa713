import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiClient, type ApiResponse } from '../support/client.js';
import type { TestServer } from '../support/server.js';
import { listAuditEvents, type AuditEventRecord } from '../../src/store/audit-events.js';
import { listDeliveries, type Delivery } from '../../src/store/webhook-deliveries.js';

// Helpers of the audit suites: clients that come from a known address and
// user agent, the events a server recorded, and a real webhook receiver.

/** A client whose every request comes from `ip` (via a trusted proxy) with `userAgent`. */
export class TracedClient extends ApiClient {
  constructor(
    baseUrl: string,
    kind: 'browser' | 'app',
    readonly ip: string,
    readonly userAgent: string,
  ) {
    super(baseUrl, kind);
  }

  override request(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse> {
    return super.request(method, path, body, { 'user-agent': this.userAgent, 'x-forwarded-for': this.ip, ...headers });
  }
}

let nextHost = 1;

/** A traced client with an address and user agent of its own; a browser has loaded /config first. */
export async function tracedClient(server: TestServer, kind: 'browser' | 'app'): Promise<TracedClient> {
  const host = nextHost++;
  const client = new TracedClient(server.baseUrl, kind, `203.0.113.${host}`, `AuditTest/${host} (${kind})`);
  if (kind === 'browser') assert.equal((await client.get('/config')).status, 200);
  return client;
}

/** Every event the server recorded, oldest first. */
export async function allEvents(server: TestServer): Promise<AuditEventRecord[]> {
  return (await listAuditEvents(server.app.deps.db, { limit: 100_000 })).reverse();
}

/** The events of one type (and user, when given), oldest first. */
export async function eventsOf(server: TestServer, type: string, userId?: number): Promise<AuditEventRecord[]> {
  return (await listAuditEvents(server.app.deps.db, { types: [type], userId, limit: 100_000 })).reverse();
}

/** Where an event says it came from: a traced client, or the admin CLI (no address or user agent). */
export type Origin = { ip: string; userAgent: string };
export const CLI: Origin = { ip: '', userAgent: '' };

export interface ExpectedEvent {
  type: string;
  from: Origin;
  outcome?: 'success' | 'failure';
  detail: Record<string, unknown>;
}

/**
 * One user's trail, read in the order the events were written. `expect`
 * takes the events since its last call, which must be exactly `expected`,
 * and checks each: type, user, address, user agent, outcome, detail and a
 * time within a minute of `now` (the server's clock, or the real one for
 * the CLI).
 */
export class UserTrail {
  private seen = 0;

  constructor(
    private readonly server: TestServer,
    readonly userId: number,
  ) {}

  private async all(): Promise<AuditEventRecord[]> {
    return (await listAuditEvents(this.server.app.deps.db, { userId: this.userId, limit: 100_000 })).sort((a, b) => a.id - b.id);
  }

  /** Passes over the events so far: those of the setup a test does not look at. */
  async skip(): Promise<void> {
    this.seen = (await this.all()).length;
  }

  async expect(now: number, ...expected: ExpectedEvent[]): Promise<AuditEventRecord[]> {
    const all = await this.all();
    const events = all.slice(this.seen);
    this.seen = all.length;
    assert.deepEqual(
      events.map((e) => e.type),
      expected.map((e) => e.type),
    );
    expected.forEach((want, i) => {
      const got = events[i]!;
      assert.equal(got.userId, this.userId, `${want.type}: user`);
      assert.equal(got.ip, want.from.ip, `${want.type}: ip`);
      assert.equal(got.userAgent, want.from.userAgent, `${want.type}: user agent`);
      assert.equal(got.outcome, want.outcome ?? 'success', `${want.type}: outcome`);
      assert.deepEqual(got.detail, want.detail, `${want.type}: detail`);
      assert.match(got.eventId, /^evt_[0-9a-f]{32}$/);
      assert.ok(Math.abs(got.occurredAt - now) < 60_000, `${want.type}: time`);
    });
    return events;
  }
}

export async function deliveriesOf(server: TestServer): Promise<Delivery[]> {
  return listDeliveries(server.app.deps.db, { limit: 100_000 });
}

/** Polls `check` until it answers something truthy: for events that happen in the background. */
export async function until<T>(what: string, check: () => Promise<T | undefined | null | false> | T | undefined | null | false, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A fresh webhook secret in the Standard Webhooks form, and its key. */
export function webhookSecret(): { setting: string; key: Buffer } {
  const key = randomBytes(32);
  return { setting: `whsec_${key.toString('base64')}`, key };
}

/**
 * A receiver's check of a delivery, written from the Standard Webhooks
 * specification (not from the server's code): the signature over
 * "id.timestamp.body" with the secret's key, among the space-separated ones.
 */
export function verifyStandardWebhook(key: Buffer, headers: http.IncomingHttpHeaders, body: string): boolean {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signatures !== 'string') return false;
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return signatures.split(' ').some((s) => s === `v1,${expected}`);
}

export interface ReceivedHook {
  id: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The status the receiver answered. */
  status: number;
}

export interface Receiver {
  url: string;
  port: number;
  received: ReceivedHook[];
  /** The status answered from now on; 'hang' never answers. */
  answer: number | 'hang';
  /** How many requests of one id were being handled at once, at most. */
  maxConcurrentPerId: number;
  /** Successful (2xx) deliveries per webhook-id. */
  delivered(): Map<string, number>;
  close(): Promise<void>;
}

/** A webhook receiver listening on `port` (any free one by default). */
export async function startReceiver(opts: { port?: number; answer?: number | 'hang'; delayMs?: number } = {}): Promise<Receiver> {
  const inFlight = new Map<string, number>();
  const hung = new Set<http.ServerResponse>();
  const receiver: Receiver = {
    url: '',
    port: 0,
    received: [],
    answer: opts.answer ?? 200,
    maxConcurrentPerId: 0,
    delivered() {
      const counts = new Map<string, number>();
      for (const hook of receiver.received) if (hook.status >= 200 && hook.status < 300) counts.set(hook.id, (counts.get(hook.id) ?? 0) + 1);
      return counts;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of hung) response.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const id = String(request.headers['webhook-id']);
      const running = (inFlight.get(id) ?? 0) + 1;
      inFlight.set(id, running);
      receiver.maxConcurrentPerId = Math.max(receiver.maxConcurrentPerId, running);
      const answer = receiver.answer;
      const finish = () => {
        inFlight.set(id, inFlight.get(id)! - 1);
        if (answer === 'hang') {
          hung.add(response);
          receiver.received.push({ id, headers: request.headers, body, status: 0 });
          return;
        }
        receiver.received.push({ id, headers: request.headers, body, status: answer });
        response.writeHead(answer, { 'content-type': 'text/plain' }).end('ok');
      };
      // A slow receiver widens the window in which two senders could overlap.
      if (opts.delayMs) setTimeout(finish, opts.delayMs);
      else finish();
    });
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${receiver.port}/hooks`;
  return receiver;
}
