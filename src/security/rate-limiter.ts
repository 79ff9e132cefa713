import { hash as cryptoHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Action, RateLimitConfig, RateLimitPer, RateLimitRule } from '../config/rate-limits.js';
import { DependencyUnavailable, failureOf } from '../kernel/unavailable.js';
import { MemoryCounter } from './memory-counter.js';

/** Redis lets several processes share the counters; the client stays owned by the caller. */
export type RateLimitStore = { kind: 'memory' } | { kind: 'redis'; client: Redis; prefix?: string };

export interface RateLimitSubject {
  ip: string;
  userId?: string | number | null;
  key?: string | null;
  /**
   * What a `key` rule's key names. Each space counts apart, so no value a
   * client types (an email, a username) can reach another space's counter.
   */
  keySpace?: KeySpace;
}

/** `identifier`: what the client typed to name an account (the default); `second_factor`: an account's id, for MFA guesses. */
export type KeySpace = 'identifier' | 'second_factor';

export type RateLimitResult = { ok: true } | { ok: false; retryAfterSeconds: number };

/** How an attempt that held a reservation ended. */
export type AttemptVerdict<T> = { succeeded: boolean; value: T };

export type GuardedResult<T> = { ok: true; succeeded: boolean; value: T } | { ok: false; retryAfterSeconds: number };

/** A refused reservation waits at most this many times for attempts in flight to settle. */
const MAX_WAITS_FOR_IN_FLIGHT = 8;

/**
 * The counters of one rule. A window opens at a subject's first hit and lasts
 * the rule's period; hits over the amount are counted too but do not extend it.
 */
interface RuleCounter {
  /** Adds points atomically; resolves with the ms left in the window when that went over the amount, else null. */
  hit(subject: string, points: number): Promise<number | null>;
  /** Takes one point back from an open window, never below zero, so refunds cannot bank extra attempts. */
  refund(subject: string): Promise<void>;
  delete(subject: string): Promise<void>;
}

interface BoundRule {
  readonly rule: RateLimitRule;
  readonly counter: RuleCounter;
  /** Names the rule in the registry of attempts in flight. */
  readonly name: string;
}

export interface RateLimiterOptions {
  /** Called for every request a rule refused (for metrics). */
  onReject?: (action: Action) => void;
}

export class RateLimiter {
  readonly #rules = new Map<Action, readonly BoundRule[]>();
  readonly #onReject: ((action: Action) => void) | undefined;
  /** Attempts of this process that hold a reservation, per rule and counted subject: each settles when its check has ended. */
  readonly #inFlight = new Map<string, Set<Promise<void>>>();

  constructor(config: RateLimitConfig | false, store: RateLimitStore, options: RateLimiterOptions = {}) {
    this.#onReject = options.onReject;
    if (config === false) return;
    const prefix = store.kind === 'redis' ? (store.prefix ?? 'rl') : 'rl';
    for (const { action, rules } of Object.values(config)) {
      this.#rules.set(
        action,
        rules.map((rule) => {
          // One key space per action and rule, so no two rules share a counter.
          const keyPrefix = `${prefix}:${action}:${rule.per}:${rule.amount}/${rule.periodSeconds}s`;
          const counter = store.kind === 'redis' ? redisCounter(store.client, keyPrefix, rule) : new MemoryCounter(rule);
          return { rule, counter, name: keyPrefix };
        }),
      );
    }
  }

  /**
   * Spends points on every rule of the action. As in the reference, each rule
   * counts independently: a request refused by one rule still spends on the
   * others. Rejects (DependencyUnavailable) only when the store fails: a limit
   * that cannot be read never lets a request through.
   */
  async consume(action: Action, subject: RateLimitSubject, points = 1): Promise<RateLimitResult> {
    if (!Number.isSafeInteger(points) || points < 1) throw new RangeError(`points must be a positive integer, got ${points}`);
    const waits = await Promise.all(this.#bind(action, subject).map(({ counter, id }) => counter.hit(id, points)));
    const over = waits.filter((ms): ms is number => ms !== null);
    if (over.length === 0) return { ok: true };
    this.#onReject?.(action);
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(Math.max(...over) / 1000)) };
  }

  /**
   * Runs a check whose failures the action counts (a password, a second
   * factor), with a point reserved on every rule before it starts, so that
   * parallel guesses cannot overshoot a limit. Only a check that ran and
   * failed keeps its point: a success gives it back and clears the key and
   * user counters (see succeeded()), and a check that threw (the database
   * went away) gives it back, since nothing was tried.
   *
   * A reservation refused while other attempts of this process hold points
   * on the refusing rule waits for them to settle and tries again: a right
   * password must not be refused because other right passwords were still
   * being checked when it arrived.
   */
  async guarded<T>(action: Action, subject: RateLimitSubject, check: () => Promise<AttemptVerdict<T>>): Promise<GuardedResult<T>> {
    const bound = this.#bind(action, subject);
    for (let waits = 0; ; waits++) {
      const over = await Promise.all(bound.map(({ counter, id }) => counter.hit(id, 1)));
      const refusing = bound.filter((_, i) => over[i] !== null);
      if (refusing.length === 0) break;
      const inFlight = refusing.flatMap(({ slot }) => [...(this.#inFlight.get(slot) ?? [])]);
      if (inFlight.length === 0 || waits === MAX_WAITS_FOR_IN_FLIGHT) {
        this.#onReject?.(action);
        const waitMs = Math.max(...over.filter((ms): ms is number => ms !== null));
        return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
      }
      // This try never ran: its points go back before it waits its turn.
      await this.#refund(bound);
      await Promise.all(inFlight);
    }

    let settle!: () => void;
    const settled = new Promise<void>((resolve) => (settle = resolve));
    for (const { slot } of bound) {
      const set = this.#inFlight.get(slot) ?? new Set();
      this.#inFlight.set(slot, set.add(settled));
    }
    try {
      const verdict = await check().catch(async (error: unknown) => {
        await this.#refund(bound).catch(() => undefined);
        throw error;
      });
      // The subjects bound above, not bound (hashed) again for the refund and the clear.
      if (verdict.succeeded) await Promise.all([this.#refund(bound), this.#clearBound(bound)]);
      return { ok: true, ...verdict };
    } finally {
      for (const { slot } of bound) {
        const set = this.#inFlight.get(slot);
        set?.delete(settled);
        if (set?.size === 0) this.#inFlight.delete(slot);
      }
      settle();
    }
  }

  async #refund(bound: ReadonlyArray<{ counter: RuleCounter; id: string }>): Promise<void> {
    await Promise.all(bound.map(({ counter, id }) => counter.refund(id)));
  }

  /** Gives one point back to every rule, e.g. the attempt reserved before a login that then succeeded. */
  async reward(action: Action, subject: RateLimitSubject): Promise<void> {
    await this.#refund(this.#bind(action, subject));
  }

  /**
   * An attempt reserved with consume() succeeded: only failures count. Its
   * per-ip point comes back (one success never clears what others from the
   * same address spent, yet a NAT full of people who get it right is never
   * locked out), and the key and user counters start afresh.
   */
  async succeeded(action: Action, subject: RateLimitSubject): Promise<void> {
    await Promise.all([this.reward(action, subject), this.clear(action, subject)]);
  }

  /**
   * Forgets the key and user counters of the action, e.g. login_failed after a
   * password reset. Per-ip counters stay, including a user rule's ip
   * fallback: clearing them would let one client reset its own limits.
   */
  async clear(action: Action, subject: RateLimitSubject): Promise<void> {
    await this.#clearBound(this.#bind(action, subject));
  }

  async #clearBound(bound: ReadonlyArray<{ counter: RuleCounter; id: string } & CountedSubject>): Promise<void> {
    await Promise.all(bound.filter(({ source }) => source !== 'ip').map(({ counter, id }) => counter.delete(id)));
  }

  #bind(action: Action, subject: RateLimitSubject): Array<{ counter: RuleCounter; slot: string } & CountedSubject> {
    const bound = [];
    for (const { rule, counter, name } of this.#rules.get(action) ?? []) {
      const counted = countedSubject(rule.per, subject);
      if (counted !== null) bound.push({ counter, slot: `${name}|${counted.id}`, ...counted });
    }
    return bound;
  }
}

interface CountedSubject {
  readonly source: RateLimitPer;
  /** Hashed so emails and ids never sit in the store in clear. */
  readonly id: string;
}

function countedSubject(per: RateLimitPer, subject: RateLimitSubject): CountedSubject | null {
  const userId = normalise(subject.userId);
  const key = normalise(subject.key);
  if (per === 'key') {
    // A key rule has nothing to count without a key (e.g. no email given).
    return key === null ? null : { source: 'key', id: hash(['key', subject.keySpace ?? 'identifier', key]) };
  }
  if (per === 'user' && userId !== null) return { source: 'user', id: hash(['user', userId]) };
  // Anonymous requests against a per-user rule count per ip, as the reference did.
  return { source: 'ip', id: hash(['ip', normalise(subject.ip) ?? '']) };
}

// The source and key space are part of what is hashed, encoded so that no
// value can pose as another's (a user whose id looks like an ip, a username
// that spells another space's key).
function hash(parts: string[]): string {
  return cryptoHash('sha256', JSON.stringify(parts), 'hex').slice(0, 32);
}

function normalise(value: string | number | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const text = String(value).trim().toLowerCase();
  return text === '' ? null : text;
}

// rate-limiter-flexible's reward() would open a window at -1 when none is
// open, i.e. grant an extra attempt, so refunds run this script instead.
const REFUND_SCRIPT = `
local consumed = tonumber(redis.call('get', KEYS[1]))
if consumed and consumed > 0 then
  redis.call('decrby', KEYS[1], 1)
end
return 0
`;

/** Every failure of a Redis call is Redis's: down, frozen (command timeout) or refusing. */
function redisFailure(error: unknown): DependencyUnavailable {
  return new DependencyUnavailable('redis', failureOf(error, 'not answering'), { cause: error });
}

function redisCounter(client: Redis, keyPrefix: string, rule: RateLimitRule): RuleCounter {
  // The library is loaded with the first hit: a server without REDIS_URL never holds it.
  let loaded: Promise<{ limiter: RateLimiterRedis; OverLimit: typeof RateLimiterRes }> | undefined;
  const library = () =>
    (loaded ??= import('rate-limiter-flexible').then(({ RateLimiterRedis, RateLimiterRes }) => ({
      limiter: new RateLimiterRedis({
        storeClient: client,
        keyPrefix,
        points: rule.amount,
        duration: rule.periodSeconds,
        // ioredis is the client this limiter defaults to (useRedisPackage stays
        // off). No insuranceLimiter and fail fast while disconnected: a store
        // outage must surface as an error, not let every attempt through or hang.
        rejectIfRedisNotReady: true,
      }),
      OverLimit: RateLimiterRes,
    })));
  return {
    async hit(subject, points) {
      const { limiter, OverLimit } = await library();
      try {
        await limiter.consume(subject, points);
        return null;
      } catch (rejection) {
        // Over the limit rejects with a RateLimiterRes; anything else is a store failure.
        if (rejection instanceof OverLimit) return rejection.msBeforeNext;
        throw redisFailure(rejection);
      }
    },
    async refund(subject) {
      const { limiter } = await library();
      await client.eval(REFUND_SCRIPT, 1, limiter.getKey(subject)).catch((error: unknown) => Promise.reject(redisFailure(error)));
    },
    async delete(subject) {
      const { limiter } = await library();
      await limiter.delete(subject).catch((error: unknown) => Promise.reject(redisFailure(error)));
    },
  };
}
