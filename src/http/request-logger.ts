import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'pino';

// request.log as Fastify hands it to hooks and handlers: a pino child bound
// to the request id. Making that child costs more than the rest of a cached
// session check, and most requests never log through it (their one line is
// the access log's, access-log.ts), so it is made on the first call.

const METHODS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

class LazyRequestLogger {
  #child: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  get level(): string {
    return this.#child?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: string) {
    this.#real().level = level;
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#real().child(bindings, options);
  }

  #real(): FastifyBaseLogger {
    return (this.#child ??= this.parent.child(this.bindings, this.options));
  }

  static {
    for (const method of METHODS) {
      Object.defineProperty(LazyRequestLogger.prototype, method, {
        value(this: LazyRequestLogger, ...args: unknown[]) {
          const real = this.#real() as unknown as Record<string, (...a: unknown[]) => void>;
          real[method]!(...args);
        },
      });
    }
  }
}

export function lazyRequestLogger(logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  return new LazyRequestLogger(logger, bindings, options) as unknown as FastifyBaseLogger;
}
