import { createTestDatabase, type TestDatabase } from './databases.js';
import { REDIS_URL } from './services.js';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.js';

// A fresh PostgreSQL database and the shared Redis, each reached through a
// proxy the test owns (tcp-proxy.ts), to fail them without touching the
// shared servers.

export interface ProxiedServices {
  database: TestDatabase;
  pgProxy: TcpProxy;
  redisProxy: TcpProxy;
  /** The database through its proxy. */
  databaseUrl: string;
  /** Redis through its proxy. */
  redisUrl: string;
  /** Lets both proxies forward again (before a server on them stops, so its pool can say goodbye). */
  release(): void;
  /** Closes both proxies and drops the database, once the server is gone. */
  close(): Promise<void>;
}

export async function startProxiedServices(): Promise<ProxiedServices> {
  const database = await createTestDatabase('postgres');
  const pgUrl = new URL(database.url);
  const pgProxy = await startTcpProxy({ host: pgUrl.hostname, port: Number(pgUrl.port) });
  const redis = new URL(REDIS_URL);
  const redisProxy = await startTcpProxy({ host: redis.hostname, port: Number(redis.port) });
  pgUrl.host = `127.0.0.1:${pgProxy.port}`;
  return {
    database,
    pgProxy,
    redisProxy,
    databaseUrl: pgUrl.toString(),
    redisUrl: `redis://127.0.0.1:${redisProxy.port}`,
    release() {
      for (const proxy of [pgProxy, redisProxy]) {
        proxy.thaw();
        proxy.accept();
      }
    },
    async close() {
      await pgProxy.close();
      await redisProxy.close();
      await database.drop();
    },
  };
}
