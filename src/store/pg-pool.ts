import type pg from 'pg';
import { loadPg } from './pg-module.js';
import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import { DependencyUnavailable, failureOf } from '../kernel/unavailable.js';

// The PostgreSQL pool Kysely draws from, made to survive PostgreSQL:
// - a connection lost while idle (a restart, pg_terminate_backend, a cut by
//   a firewall) is reported to `onError` and dropped, where pg's own pool
//   would raise an unhandled 'error' event and end the process;
// - one lost while in use fails only its own query;
// - every connect (and every wait for a free connection) and every statement
//   has a deadline: PostgreSQL cancels a statement at the statement timeout,
//   and the client gives up a moment later in case the server never answers
//   (a frozen host), destroying the connection rather than reusing it;
// - all of these surface as DependencyUnavailable, which the http layer
//   answers with 503.

export interface ResilientPoolOptions {
  connectionString: string;
  max: number;
  connectTimeoutMs: number;
  statementTimeoutMs: number;
  types: pg.CustomTypesConfig;
  /** An idle connection failed; it has been dropped already. */
  onError(error: DependencyUnavailable): void;
}

// How much longer than PostgreSQL's own statement timeout the client waits:
// a slow statement is cancelled by the server and its connection kept; only
// a server that does not answer at all costs the connection.
const CLIENT_GRACE_MS = 500;

// SQLSTATE classes and codes that say the server cannot serve now, not that
// the statement is wrong: connection exceptions (08), insufficient resources
// (53), cancelled statements (57014, the statement timeout), operator
// intervention (57P0x: shutdown, restart, terminated backend), system errors
// (58), and a read-only server (25006, e.g. a standby after a failover).
const UNAVAILABLE_STATE = /^(08|53|58|57014|57P0|25006)/;
// Of those, the ones after which the connection itself is gone.
const CONNECTION_LOST_STATE = /^(08|57P0)/;

function isServerError(error: unknown): error is pg.DatabaseError {
  return error instanceof loadPg().DatabaseError;
}

const TIMED_OUT = Symbol('timed out');

/** A pool client whose queries have a deadline and whose failures are classified. */
class GuardedClient implements PostgresPoolClient {
  readonly #client: pg.PoolClient;
  readonly #deadlineMs: number;
  /** Set once the connection is known to be unusable: it is then destroyed on release, not pooled. */
  #lost: DependencyUnavailable | null = null;
  readonly #onError = (error: Error) => {
    this.#lost ??= new DependencyUnavailable('database', failureOf(error), { cause: error });
  };

  constructor(client: pg.PoolClient, deadlineMs: number) {
    this.#client = client;
    this.#deadlineMs = deadlineMs;
    // pg raises 'error' on a client whose connection drops; while the pool
    // lends it out, nobody else listens, and an unheard 'error' ends the process.
    client.on('error', this.#onError);
  }

  query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
  query<R>(cursor: never): never;
  async query<R>(sql: string, parameters?: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> {
    if (this.#lost) throw this.#lost;
    const running = this.#client.query(sql, parameters as unknown[]) as unknown as Promise<PostgresQueryResult<R>>;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<typeof TIMED_OUT>((resolve) => {
      timer = setTimeout(() => resolve(TIMED_OUT), this.#deadlineMs);
    });
    try {
      const result = await Promise.race([running, deadline]);
      if (result !== TIMED_OUT) return result;
      // The statement may still arrive one day; nobody waits for it.
      running.catch(() => {});
      this.#lost = new DependencyUnavailable('database', 'timeout');
      throw this.#lost;
    } catch (error) {
      if (error === this.#lost) throw error;
      if (isServerError(error) && error.code !== undefined && UNAVAILABLE_STATE.test(error.code)) {
        const unavailable = new DependencyUnavailable('database', error.code, { cause: error });
        if (CONNECTION_LOST_STATE.test(error.code)) this.#lost = unavailable;
        throw unavailable;
      }
      // The connection failed under the query (pg raised 'error' before rejecting it).
      if (this.#lost) throw new DependencyUnavailable('database', this.#lost.code, { cause: error });
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  release(): void {
    this.#client.off('error', this.#onError);
    // An error passed to release makes pg's pool destroy the connection.
    this.#client.release(this.#lost ?? undefined);
  }
}

export function resilientPool(options: ResilientPoolOptions): PostgresPool {
  const pool = new (loadPg().Pool)({
    connectionString: options.connectionString,
    max: options.max,
    types: options.types,
    connectionTimeoutMillis: options.connectTimeoutMs,
    statement_timeout: options.statementTimeoutMs,
    // A transaction left open by an instance that stalled must not hold its locks for long.
    idle_in_transaction_session_timeout: 2 * options.statementTimeoutMs,
    keepAlive: true,
  });
  pool.on('error', (error) => options.onError(new DependencyUnavailable('database', failureOf(error), { cause: error })));
  return {
    async connect() {
      const started = performance.now();
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (error) {
        // Refused, unreachable, or no connection (or free one) within the connect timeout.
        const timedOut = performance.now() - started >= options.connectTimeoutMs;
        throw new DependencyUnavailable('database', timedOut ? 'connect timeout' : failureOf(error, 'connect failed'), { cause: error });
      }
      return new GuardedClient(client, options.statementTimeoutMs + CLIENT_GRACE_MS);
    },
    end: () => pool.end(),
  };
}
