import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import type { Config } from './config/config.js';
import type { Clock, Deps } from './flows/context.js';
import { closeDatabase, openDatabase, migrateToLatest, type Db } from './store/db.js';
import { RateLimiter } from './security/rate-limiter.js';
import { createMailer, type Mailer } from './messaging/mailer.js';
import { createSmsSender, type SmsSender } from './messaging/sms/sender.js';
import { createHttpServer } from './http/server.js';
import { startSweeper } from './store/sweeper.js';
import { configurePasswordHashing } from './security/passwords.js';
import { prepareTokenStrategy } from './tokens/load-strategy.js';
import { atRestCipher } from './security/at-rest.js';

export interface AppOverrides {
  clock?: Clock;
  mailer?: Mailer;
  sms?: SmsSender;
  /** A pino logger config or false; defaults to the configured level. */
  logger?: object | boolean;
}

export interface App {
  http: FastifyInstance;
  deps: Deps;
  close(): Promise<void>;
}

const systemClock: Clock = { now: () => Date.now() };

/** Wires every dependency in one place and returns a ready, unstarted server. */
export async function buildApp(config: Config, overrides: AppOverrides = {}): Promise<App> {
  configurePasswordHashing({ maxConcurrent: config.passwordHashingConcurrency });
  // A bad token strategy or JWT key stops start-up before anything is opened.
  const createTokens = await prepareTokenStrategy(config);
  const db: Db = openDatabase(config.databaseUrl);
  let redis: Redis | undefined;
  try {
    await migrateToLatest(db);
    if (config.redisUrl) {
      redis = new Redis(config.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 2 });
      await redis.connect();
    }
  } catch (error) {
    redis?.disconnect();
    await closeDatabase(db);
    throw error;
  }
  const base: Omit<Deps, 'tokens'> = {
    config,
    db,
    clock: overrides.clock ?? systemClock,
    limiter: new RateLimiter(config.account.rateLimits, redis ? { kind: 'redis', client: redis } : { kind: 'memory' }),
    mailer: overrides.mailer ?? createMailer({ smtpUrl: config.mail.smtpUrl, from: config.mail.from, log: (line) => console.log(line) }),
    sms: overrides.sms ?? createSmsSender(config.sms, (line) => console.log(line)),
    log: console,
    atRest: atRestCipher([config.secretKey]),
  };
  const deps: Deps = Object.assign(base, { tokens: createTokens(base) });
  const http = await createHttpServer(deps, overrides.logger ?? { level: config.logLevel });
  // Flows log through the server's logger once it exists.
  deps.log = http.log;
  const stopSweeper = startSweeper(db, () => deps.clock.now(), (error) => http.log.error({ err: error }, 'sweeping expired records failed'));
  return {
    http,
    deps,
    async close() {
      stopSweeper();
      await http.close();
      await deps.mailer.close();
      redis?.disconnect();
      await closeDatabase(db);
    },
  };
}
