import { readInt, type Env } from './env.js';

// How long the service waits for PostgreSQL and Redis: per connection, per
// statement or command, and at start-up for them to come up at all.

export interface DependencySettings {
  database: {
    /** DATABASE_CONNECT_TIMEOUT_MS: opening a connection, or waiting for a free one in the pool. */
    connectTimeoutMs: number;
    /** DATABASE_STATEMENT_TIMEOUT_MS: each statement, enforced by PostgreSQL and by the client. */
    statementTimeoutMs: number;
  };
  redis: {
    /** REDIS_CONNECT_TIMEOUT_MS */
    connectTimeoutMs: number;
    /** REDIS_COMMAND_TIMEOUT_MS */
    commandTimeoutMs: number;
  };
  /** DEPENDENCY_WAIT_SECONDS: how long a start retries an unreachable database or Redis. */
  startupWaitSeconds: number;
}

export function readDependencySettings(env: Env): DependencySettings {
  const ms = (name: string, fallback: number) => readInt(env, name, fallback, { min: 10, max: 600_000 });
  return {
    database: { connectTimeoutMs: ms('DATABASE_CONNECT_TIMEOUT_MS', 5000), statementTimeoutMs: ms('DATABASE_STATEMENT_TIMEOUT_MS', 5000) },
    redis: { connectTimeoutMs: ms('REDIS_CONNECT_TIMEOUT_MS', 5000), commandTimeoutMs: ms('REDIS_COMMAND_TIMEOUT_MS', 1000) },
    startupWaitSeconds: readInt(env, 'DEPENDENCY_WAIT_SECONDS', 60, { min: 0, max: 3600 }),
  };
}
