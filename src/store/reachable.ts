import type { Redis } from 'ioredis';
import type { Logger } from '../observability/logger.js';
import { DependencyUnavailable, failureOf } from '../kernel/unavailable.js';
import { asUnavailable } from './unavailable.js';

// In a deployment the database and Redis may come up after the service. A
// start retries them for DEPENDENCY_WAIT_SECONDS, logging each miss, and
// then gives up with a StartupError naming the setting, where it points
// (host, port, database; never the credentials in the URL) and what failed.

export type DependencySetting = 'DATABASE_URL' | 'REDIS_URL';

export class StartupError extends Error {
  override name = 'StartupError';
  constructor(
    readonly setting: DependencySetting,
    readonly target: string,
    readonly failure: string,
    waitedSeconds: number,
  ) {
    super(`${setting} (${target}) is not reachable: ${failure}, after ${waitedSeconds} s of retrying`);
  }
}

/** Where a dependency URL points, without user or password. */
export function targetOf(url: string): string {
  if (url.startsWith('sqlite:')) return url;
  try {
    const parsed = new URL(url);
    const defaultPort = parsed.protocol === 'redis:' || parsed.protocol === 'rediss:' ? '6379' : '5432';
    return `${parsed.hostname}:${parsed.port || defaultPort}${parsed.pathname.length > 1 ? parsed.pathname : ''}`;
  } catch {
    return 'an unparsable URL';
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `attempt` until it succeeds. A dependency failure is retried, with a
 * growing pause (0.5 s, 1 s, ... 5 s), until `deadline` (ms since the epoch);
 * any other error ends the start at once.
 */
export async function untilReachable(setting: DependencySetting, url: string, attempt: () => Promise<unknown>, deadline: number, log: Logger): Promise<void> {
  const started = Date.now();
  for (let tries = 1; ; tries++) {
    try {
      await attempt();
      return;
    } catch (error) {
      const unavailable = asUnavailable(error);
      if (!unavailable) throw error;
      const left = deadline - Date.now();
      if (left <= 0) throw new StartupError(setting, targetOf(url), unavailable.code, Math.round((Date.now() - started) / 1000));
      const pause = Math.min(tries * 500, 5000, left);
      log.warn({ setting, target: targetOf(url), failure: unavailable.code, retry_in_ms: pause }, `${setting} is not reachable yet; retrying`);
      await sleep(pause);
    }
  }
}

/** Resolves once `client` is connected; rejects with the failure of its next connection attempt. */
export function redisReady(client: Redis): Promise<void> {
  if (client.status === 'ready') return Promise.resolve();
  // The first call starts the client; from then on it reconnects by itself.
  if (client.status === 'wait') client.connect().catch(() => {});
  return new Promise((resolve, reject) => {
    const settle = (error?: Error) => {
      client.off('ready', onReady);
      client.off('error', onError);
      if (error) reject(new DependencyUnavailable('redis', failureOf(error, 'not answering'), { cause: error }));
      else resolve();
    };
    const onReady = () => settle();
    const onError = (error: Error) => settle(error);
    client.on('ready', onReady);
    client.on('error', onError);
  });
}
