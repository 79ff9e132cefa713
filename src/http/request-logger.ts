import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'pino';

// request.log as Fastify hands it to hooks and handlers: a pino child bound
// to the request id. Making that child costs more than the rest of a cached
// session check, and most requests never log through it (their one line is
// the access log's, access-log.ts), so it is made on the first call.
//
// Fastify makes each request's logger with its logger's child(); given a
// factory of our own instead, it would check every logger the factory
// returns, on every request. So Fastify gets the process's logger wrapped,
// with a child() that answers a lazy one.

const METHODS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** Logs through `real()`; its own child() is lazy. */
abstract class DeferredLogger {
  abstract real(): FastifyBaseLogger;

  child(bindings: Bindings, options: ChildLoggerOptions = {}): FastifyBaseLogger {
    return new LazyRequestLogger(this.real(), bindings, options) as unknown as FastifyBaseLogger;
  }

  static {
    for (const method of METHODS) {
      Object.defineProperty(DeferredLogger.prototype, method, {
        value(this: DeferredLogger, ...args: unknown[]) {
          const real = this.real() as unknown as Record<string, (...a: unknown[]) => void>;
          real[method]!(...args);
        },
      });
    }
  }
}

class LazyRequestLogger extends DeferredLogger {
  #child: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {
    super();
  }

  get level(): string {
    return this.#child?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: string) {
    this.real().level = level;
  }

  real(): FastifyBaseLogger {
    return (this.#child ??= this.parent.child(this.bindings, this.options));
  }
}

class RequestLoggerRoot extends DeferredLogger {
  constructor(private readonly logger: FastifyBaseLogger) {
    super();
  }

  get level(): string {
    return this.logger.level;
  }

  set level(level: string) {
    this.logger.level = level;
  }

  real(): FastifyBaseLogger {
    return this.logger;
  }
}

/** `logger` for Fastify's loggerInstance: the same lines, and a lazy logger for each request. */
export function withLazyRequestLoggers(logger: FastifyBaseLogger): FastifyBaseLogger {
  return new RequestLoggerRoot(logger) as unknown as FastifyBaseLogger;
}
