import { pathToFileURL } from 'node:url';
import type { Config } from '../config/config.js';
import { ConfigError } from '../config/env.js';
import type { Db } from '../store/db.js';
import type { Clock } from '../kernel/clock.js';
import type { Logger } from '../kernel/log.js';
import type { Metrics } from '../observability/metrics.js';
import { findLiveSession } from '../store/sessions.js';
import type { MaybePromise } from '../kernel/maybe-promise.js';
import { createJwtStrategy, type JwtStrategyDeps } from './jwt-strategy.js';
import { loadSigningKeys, type SigningKeys } from './keys.js';
import { secretRing } from '../security/signing.js';
import { sessionTokenStrategy } from './session-token-strategy.js';
import type { LiveSession, StrategyContext, StrategyFactory, TokenStrategy } from './strategy.js';

export interface TokenDeps {
  config: Config;
  db: Db;
  clock: Clock;
  log: Logger;
  metrics: Metrics;
}

/**
 * Builds the strategy, before the server opens its database: everything about
 * HEADLESS_TOKEN_STRATEGY that can fail (importing a custom module, parsing
 * keys, a strategy missing an operation) stops start-up here with one message
 * naming the setting. The returned function hands the strategy the wired
 * dependencies; it may not use them before that (not in a module's factory).
 */
export async function prepareTokenStrategy(config: Config): Promise<(deps: TokenDeps) => TokenStrategy> {
  const { strategy, jwt } = config.tokens;
  const keysUsable = jwt.algorithm.startsWith('HS') || jwt.privateKey !== undefined;
  const keys: SigningKeys | undefined = strategy.kind === 'session' || !keysUsable ? undefined : await loadSigningKeys(jwt, secretRing(config));
  const factory = strategy.kind === 'module' ? await importFactory(strategy.path) : undefined;

  let wired: TokenDeps | undefined;
  const deps = (): TokenDeps => {
    if (!wired) throw new Error('the token strategy was used before the server was wired');
    return wired;
  };
  const findSession = (sessionKey: string): MaybePromise<LiveSession | null> => findLiveSession(deps().db, sessionKey, deps().clock.now());
  // Read at call time: the server's logger replaces the start-up one after wiring.
  const jwtDeps: JwtStrategyDeps = {
    config,
    findSession,
    get db() {
      return deps().db;
    },
    get clock() {
      return deps().clock;
    },
    get log() {
      return deps().log;
    },
    get metrics() {
      return deps().metrics;
    },
  };
  const ctx: StrategyContext = {
    config,
    now: () => deps().clock.now(),
    // Custom strategies always get a promise, as the interface promises.
    findSession: async (sessionKey) => findSession(sessionKey),
    builtins: {
      sessionToken: () => sessionTokenStrategy(findSession),
      jwt: (options) => {
        if (!keys) throw new ConfigError(`HEADLESS_JWT_PRIVATE_KEY is required for HEADLESS_JWT_ALGORITHM=${jwt.algorithm}`);
        return createJwtStrategy(jwtDeps, keys, options);
      },
    },
  };
  const built = strategy.kind === 'session' ? ctx.builtins.sessionToken() : strategy.kind === 'jwt' ? ctx.builtins.jwt() : withDefaults(factory!(ctx));
  return (given) => {
    wired = given;
    return built;
  };
}

async function importFactory(path: string): Promise<StrategyFactory> {
  let module: Record<string, unknown>;
  try {
    module = await import(pathToFileURL(path).href);
  } catch (error) {
    throw new ConfigError(`HEADLESS_TOKEN_STRATEGY: cannot load ${path}: ${(error as Error).message}`);
  }
  const factory = module.default ?? module.createTokenStrategy;
  if (typeof factory !== 'function') {
    throw new ConfigError(`HEADLESS_TOKEN_STRATEGY: ${path} must export a default function (ctx) => strategy`);
  }
  return factory as StrategyFactory;
}

/**
 * The reference's defaults for the optional operations; the two required ones
 * must exist. Methods are bound, so a class instance works as well as a literal.
 */
function withDefaults(strategy: TokenStrategy): TokenStrategy {
  const op = <K extends keyof TokenStrategy>(name: K): TokenStrategy[K] | undefined =>
    typeof strategy?.[name] === 'function' ? ((strategy[name] as (...args: never[]) => unknown).bind(strategy) as TokenStrategy[K]) : undefined;
  const createSessionToken = op('createSessionToken');
  const lookupSession = op('lookupSession');
  if (!createSessionToken || !lookupSession) {
    throw new ConfigError('HEADLESS_TOKEN_STRATEGY: a strategy needs at least createSessionToken() and lookupSession()');
  }
  const createAccessToken = op('createAccessToken');
  return {
    createSessionToken,
    lookupSession,
    createAccessToken,
    createAccessTokenPayload:
      op('createAccessTokenPayload') ??
      (async (subject) => {
        const token = createAccessToken ? await createAccessToken(subject) : null;
        return token ? { access_token: token } : null;
      }),
    refreshToken: op('refreshToken') ?? (async () => null),
    authenticate: op('authenticate'),
    jwks: op('jwks'),
  };
}
