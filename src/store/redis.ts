import type { Redis } from 'ioredis';
import type { Logger } from '../observability/logger.js';
import { failureOf } from '../kernel/unavailable.js';

// The Redis client behind the shared rate-limit counters. A command never
// waits for a connection that is not there: while Redis is unreachable every
// command fails at once (and the limiter refuses, 503), a frozen Redis fails
// it after REDIS_COMMAND_TIMEOUT_MS, and the client keeps reconnecting in
// the background, so service resumes within a second or two of Redis's
// return. An outage is logged once when it starts and once when it ends.

export interface RedisSettings {
  connectTimeoutMs: number;
  commandTimeoutMs: number;
}

// Reconnect after 100 ms, 200 ms, ... at most every 2 s, for as long as it takes.
const retryDelay = (attempt: number) => Math.min(attempt * 100, 2000);

/** Loads ioredis only when REDIS_URL is set. */
export async function openRedis(url: string, settings: RedisSettings, log: Logger): Promise<Redis> {
  const { Redis } = await import('ioredis');
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: settings.connectTimeoutMs,
    commandTimeout: settings.commandTimeoutMs,
    enableOfflineQueue: false,
    // A command in flight when the connection drops fails then, and is not
    // sent again after the reconnect (it would count a hit twice).
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    retryStrategy: retryDelay,
  });
  let down = false;
  // Without a listener ioredis prints each error as plain text beside the JSON log.
  client.on('error', (error) => {
    if (down) return;
    down = true;
    log.warn({ setting: 'REDIS_URL', failure: failureOf(error) }, 'Redis is not answering; reconnecting');
  });
  client.on('ready', () => {
    if (!down) return;
    down = false;
    log.info({ setting: 'REDIS_URL' }, 'Redis connection restored');
  });
  return client;
}
