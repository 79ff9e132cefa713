import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { AddressInfo } from 'node:net';
import type { Config } from './config/config.js';
import type { Deps } from './flows/context.js';
import type { Clock } from './kernel/clock.js';
import { closeDatabase, openDatabase, migrateToLatest, type Db } from './store/db.js';
import { openRedis } from './store/redis.js';
import { redisReady, untilReachable } from './store/reachable.js';
import { asUnavailable } from './store/unavailable.js';
import { RefusalTally } from './audit/refusal-tally.js';
import { RateLimiter } from './security/rate-limiter.js';
import { createMailer, type Mailer } from './messaging/mailer.js';
import { createSmsSender, type SmsSender } from './messaging/sms/sender.js';
import { createHttpServer } from './http/server.js';
import { startSweeper } from './store/sweeper.js';
import { configurePasswordHashing, passwordHashingLoad } from './security/passwords.js';
import { prepareTokenStrategy } from './tokens/load-strategy.js';
import { atRestCipher } from './security/at-rest.js';
import { createLogger, silentLogger, type Logger } from './observability/logger.js';
import { createMetrics, disabledMetrics } from './observability/metrics.js';
import { countedMailer, countedSmsSender } from './messaging/counted.js';
import { readinessProbe, shuttingDown, type DependencyCheck } from './observability/readiness.js';
import { metricsServer } from './observability/metrics-server.js';
import { createSocialProviders } from './social/registry.js';
import { startWebhookSender } from './messaging/webhooks/sender.js';
import { createAdminServer } from './http/admin/server.js';
import { idpRateLimits } from './idp/rate-limit.js';
import { createTranslator } from './i18n/catalog.js';
import { loadTemplates } from './templates/load.js';

export interface AppOverrides {
  clock?: Clock;
  mailer?: Mailer;
  sms?: SmsSender;
  /** The logger every part writes to, or false for none; defaults to JSON lines on stdout at the configured level. */
  logger?: Logger | false;
}

export interface App {
  http: FastifyInstance;
  deps: Deps;
  log: Logger;
  /** Sweeps expired records and the audit trail past its retention now, as the sweeper does every ten minutes. */
  sweep(): Promise<void>;
  /** With METRICS_PORT: starts /metrics on its own port (resolves with its address); otherwise resolves with null. */
  listenMetrics(): Promise<AddressInfo | null>;
  /** With ADMIN_PORT: starts the admin API and console on their own port (resolves with its address); otherwise resolves with null. */
  listenAdmin(): Promise<AddressInfo | null>;
  /**
   * The first step of a shutdown: /readyz answers 503 and every response
   * closes its connection, while the server keeps accepting and serving
   * until close() stops the listener and drains.
   */
  beginShutdown(): void;
  close(): Promise<void>;
}

const systemClock: Clock = { now: () => Date.now() };

/** Wires every dependency in one place and returns a ready, unstarted server. */
export async function buildApp(config: Config, overrides: AppOverrides = {}): Promise<App> {
  const log = overrides.logger === false ? silentLogger() : (overrides.logger ?? createLogger(config.logLevel));
  for (const warning of config.warnings) log.warn({ setting_warning: warning }, warning);
  configurePasswordHashing({ maxConcurrent: config.passwordHashingConcurrency });
  const metrics = config.operations.metrics.enabled ? createMetrics({ passwordHashes: passwordHashingLoad }) : disabledMetrics;
  // A broken catalogue, like a bad token strategy or JWT key, stops start-up before anything is opened.
  const { languages, languageCode, localeDir } = config.languages;
  const i18n = createTranslator({ languages, defaultLanguage: languageCode, localeDir });
  // So does a template that does not compile or prints a variable nobody gives.
  const { templates, unknown: unknownTemplates } = loadTemplates(config, i18n);
  for (const file of unknownTemplates) log.warn({ setting: 'TEMPLATES_DIR', file }, `TEMPLATES_DIR: ${file} overrides no template`);
  const createTokens = await prepareTokenStrategy(config);
  const db: Db = openDatabase(config.databaseUrl, {
    onQuery: config.operations.metrics.enabled ? (seconds) => metrics.query(seconds) : undefined,
    timeouts: config.dependencies.database,
    // PostgreSQL restarted, or a backend was terminated: the pool drops the connection and opens another when needed.
    onConnectionLost: (error) => log.warn({ setting: 'DATABASE_URL', failure: error.code }, 'an idle database connection was lost'),
  });
  const redis = config.redisUrl ? await openRedis(config.redisUrl, config.dependencies.redis, log) : undefined;
  try {
    // The database and Redis may come up after the service: each gets the same while to answer.
    const deadline = Date.now() + config.dependencies.startupWaitSeconds * 1000;
    await untilReachable('DATABASE_URL', config.databaseUrl, () => migrateToLatest(db), deadline, log);
    if (redis) await untilReachable('REDIS_URL', config.redisUrl!, () => redisReady(redis), deadline, log);
  } catch (error) {
    redis?.disconnect();
    await closeDatabase(db);
    throw error;
  }
  // Console transports print bodies (links, codes) only outside production.
  const showBodies = !config.production;
  const consoleLog = (fields: Record<string, unknown>, message: string) => log.info(fields, message);
  const clock = overrides.clock ?? systemClock;
  const limiterStore = redis ? ({ kind: 'redis', client: redis } as const) : ({ kind: 'memory' } as const);
  const idpLimits = idpRateLimits(config.idp);
  const refusals = new RefusalTally({ config, db, clock }, (error) => {
    const unavailable = asUnavailable(error);
    log.warn({ dependency: unavailable?.dependency, failure: unavailable?.code ?? String(error) }, 'recording rate-limit refusals failed; next round later');
  });
  const onReject = (action: string) => {
    metrics.rateLimited(action);
    refusals.note(action);
  };
  const base: Omit<Deps, 'tokens'> = {
    config,
    db,
    clock,
    limiter: new RateLimiter(config.account.rateLimits, limiterStore, { onReject }),
    idpLimiter: idpLimits ? new RateLimiter(idpLimits, limiterStore, { onReject }) : undefined,
    refusals,
    mailer: countedMailer(overrides.mailer ?? createMailer({ smtpUrl: config.mail.smtpUrl, from: config.mail.from, log: consoleLog, showBodies }), metrics),
    sms: countedSmsSender(overrides.sms ?? createSmsSender(config.sms, consoleLog, showBodies), metrics),
    log,
    // Sealed with SECRET_KEY; opened with it or any of SECRET_KEY_FALLBACKS.
    atRest: atRestCipher([config.secretKey, ...config.secretKeyFallbacks]),
    metrics,
    i18n,
    templates,
    social: createSocialProviders(config.social, () => clock.now()),
  };
  const deps: Deps = Object.assign(base, { tokens: createTokens(base) });

  const checks: DependencyCheck[] = [{ name: 'database', check: () => sql`select 1`.execute(db) }];
  if (redis) {
    const client = redis;
    checks.push({ name: 'redis', check: () => client.ping() });
  }
  const separateMetrics = metrics.registry && config.operations.metrics.port !== undefined ? metricsServer(metrics.registry) : null;
  const probe = readinessProbe(checks, config.operations.healthCheckTimeoutMs);
  let stopping = false;
  const http = await createHttpServer(deps, {
    logger: log,
    operations: { readiness: () => (stopping ? Promise.resolve(shuttingDown) : probe()), metrics: separateMetrics ? null : metrics.registry },
    shuttingDown: () => stopping,
  });
  // Flows log through the server's logger (with its bindings) once it exists.
  deps.log = http.log;
  let admin: Awaited<ReturnType<typeof createAdminServer>> | null = null;
  try {
    admin = config.admin.port !== undefined ? await createAdminServer(deps, log) : null;
  } catch (error) {
    await http.close();
    redis?.disconnect();
    await closeDatabase(db);
    throw error;
  }
  const sweeper = startSweeper(
    db,
    () => deps.clock.now(),
    (error) => {
      const unavailable = asUnavailable(error);
      if (unavailable) http.log.warn({ dependency: unavailable.dependency, failure: unavailable.code }, 'sweeping expired records failed; next round later');
      else http.log.error({ err: error }, 'sweeping expired records failed');
    },
    { auditRetentionDays: config.audit.retentionDays },
  );
  // The outbox's senders run for webhooks, and for the OpenID provider's back-channel logouts.
  const webhooks = config.audit.webhooks ?? (config.idp.enabled ? { urls: [], secret: Buffer.alloc(0), events: new Set<never>(), ...config.audit.outbox } : null);
  const sender = webhooks
    ? startWebhookSender({
        db,
        settings: webhooks,
        clock,
        metrics,
        backchannelAllowPrivate: config.idp.backchannelLogoutAllowPrivate,
        onError: (error) => {
          const unavailable = asUnavailable(error);
          if (unavailable) http.log.warn({ dependency: unavailable.dependency, failure: unavailable.code }, 'webhook round failed; next round later');
          else http.log.error({ err: error }, 'webhook round failed');
        },
      })
    : null;
  // A quiet minute after a burst still gets its refusals written.
  const refusalRounds = setInterval(() => void refusals.flush(), 60_000).unref();
  return {
    http,
    deps,
    log,
    async listenMetrics() {
      if (!separateMetrics) return null;
      const address = await separateMetrics.listen(config.operations.metrics.host, config.operations.metrics.port!);
      log.info({ host: address.address, port: address.port }, 'metrics listening');
      return address;
    },
    async listenAdmin() {
      if (!admin) return null;
      const address = await admin.listen(config.admin.host, config.admin.port!);
      log.info({ host: address.address, port: address.port }, 'admin API listening');
      return address;
    },
    sweep: () => sweeper.sweep(),
    beginShutdown() {
      stopping = true;
    },
    async close() {
      sweeper.stop();
      clearInterval(refusalRounds);
      await refusals.flush();
      // Before the database closes: the round in flight records its results.
      await sender?.stop();
      await separateMetrics?.close();
      await admin?.close();
      await http.close();
      await deps.mailer.close();
      redis?.disconnect();
      await closeDatabase(db);
    },
  };
}
