import { after, before } from 'node:test';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../src/config/config.js';
import { buildApp, type App } from '../../src/app.js';
import type { Logger } from '../../src/observability/logger.js';
import { ApiClient } from './client.js';
import { createMigratedDatabase, databaseKinds, type DatabaseKind, type TestDatabase } from './databases.js';
import { startSmtpSink, type SmtpSink } from './smtp-sink.js';
import { describeUnlessSkipped } from './suites.js';

/** A clock the tests move instead of sleeping. */
export class TestClock {
  private offset = 0;
  private frozenAt: number | null = null;
  now = (): number => (this.frozenAt ?? Date.now()) + this.offset;
  advance(ms: number): void {
    this.offset += ms;
  }
  /**
   * Stops real time for this clock until thaw(), so that only advance()
   * moves it: for checks a second either side of a boundary, which a loaded
   * machine could otherwise push across it.
   */
  freeze(): void {
    this.frozenAt ??= Date.now();
  }
  /** Lets real time run again from the instant the clock shows. */
  thaw(): void {
    if (this.frozenAt === null) return;
    this.offset += this.frozenAt - Date.now();
    this.frozenAt = null;
  }
}

export interface TestServer {
  baseUrl: string;
  clock: TestClock;
  mail: SmtpSink;
  app: App;
  client(kind: 'browser' | 'app'): ApiClient;
  close(): Promise<void>;
}

export const TEST_SECRET = 'test-secret-key-that-is-long-enough-0123456789';

export interface TestServerOptions {
  /** Where the server logs (default: nowhere). */
  logger?: Logger;
  /** An existing database to start on, e.g. to restart with other settings; it is left in place on close. */
  database?: TestDatabase;
  /** Listen on this port (settings that name the server's own origin need it before start), instead of any free one. */
  port?: number;
}

/**
 * A listening server on a fresh database of `kind`, mailing to a real SMTP
 * sink. Rate limits are off unless the test's env turns them on, so suites
 * do not trip over each other's counters.
 */
export async function startTestServer(kind: DatabaseKind, env: Record<string, string> = {}, options: TestServerOptions = {}): Promise<TestServer> {
  const database: TestDatabase = options.database ?? (await createMigratedDatabase(kind));
  const mail = await startSmtpSink();
  const clock = new TestClock();
  const config = loadConfig({
    SECRET_KEY: TEST_SECRET,
    ACCOUNT_RATE_LIMITS: 'false',
    ...env,
    DATABASE_URL: database.url,
    SMTP_URL: mail.url,
  });
  const app = await buildApp(config, { clock, logger: options.logger ?? false });
  try {
    await app.http.listen({ host: '127.0.0.1', port: options.port ?? 0 });
  } catch (error) {
    await app.close();
    await mail.close();
    if (!options.database) await database.drop();
    throw error;
  }
  const { port } = app.http.server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    baseUrl,
    clock,
    mail,
    app,
    client: (clientKind) => new ApiClient(baseUrl, clientKind),
    async close() {
      await app.close();
      await mail.close();
      if (!options.database) await database.drop();
    },
  };
}

/**
 * Runs `body` once per database kind (SQLite always; PostgreSQL when
 * reachable, mandatory in CI), each with its own server started from `env`.
 */
const KINDS = await databaseKinds();

export function describeEachDatabase(name: string, env: Record<string, string>, body: (ctx: { server: () => TestServer; kind: DatabaseKind }) => void): void {
  for (const { kind, skip } of KINDS) {
    describeUnlessSkipped(`${name} [${kind}]`, skip, () => {
      let server: TestServer | undefined;
      before(async () => {
        server = await startTestServer(kind, env);
      });
      after(async () => {
        await server?.close();
      });
      body({ server: () => server!, kind });
    });
  }
}
