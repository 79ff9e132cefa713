import type { RateLimitRule } from '../config/rate-limits.js';

// One rule's counters in this process (no REDIS_URL), in a fixed budget of
// memory whatever the number of subjects: an exact window per subject for
// the first EXACT_LIMIT subjects whose windows are open, and for any beyond
// them (a flood of distinct addresses or IPs) a count-min sketch. The sketch
// can only over-count: each cell adds up the points of every subject that
// hashes there, and a subject's count is its smallest cell, never less than
// its own points. So a flood can make limits stricter for the subjects that
// land in the sketch, never let through a request an exact count would
// refuse. For the same reason refunds and clears do not reach the sketch.

export const EXACT_LIMIT = 10_000;
const SKETCH_ROWS = 4;
const SKETCH_WIDTH = 1 << 14;

interface CounterWindow {
  points: number;
  resetAt: number;
}

export class MemoryCounter {
  // Insertion order is window order (a window that restarts is moved to the
  // end), so expired windows are always at the front.
  readonly #windows = new Map<string, CounterWindow>();
  readonly #amount: number;
  readonly #periodMs: number;
  readonly #now: () => number;
  #sketch: EpochSketch | undefined;

  constructor(rule: RateLimitRule, now: () => number = Date.now) {
    this.#amount = rule.amount;
    this.#periodMs = rule.periodSeconds * 1000;
    this.#now = now;
  }

  /** Subjects counted exactly right now (at most EXACT_LIMIT). */
  get exactSubjects(): number {
    return this.#windows.size;
  }

  // Synchronous bodies: no await between read and write, so concurrent calls cannot interleave.
  async hit(subject: string, points: number): Promise<number | null> {
    const now = this.#now();
    let window = this.#openWindow(subject, now);
    if (!window) {
      this.#dropExpired(now);
      if (this.#windows.size >= EXACT_LIMIT) {
        this.#sketch ??= new EpochSketch(this.#periodMs);
        const counted = this.#sketch.add(subject, points, now);
        return counted > this.#amount ? this.#sketch.clearsBy(now) - now : null;
      }
      window = { points: 0, resetAt: now + this.#periodMs };
      this.#windows.delete(subject);
      this.#windows.set(subject, window);
    }
    window.points += points;
    return window.points > this.#amount ? window.resetAt - now : null;
  }

  async refund(subject: string): Promise<void> {
    const window = this.#openWindow(subject, this.#now());
    if (window) window.points = Math.max(0, window.points - 1);
  }

  async delete(subject: string): Promise<void> {
    this.#windows.delete(subject);
  }

  #openWindow(subject: string, now: number): CounterWindow | undefined {
    const window = this.#windows.get(subject);
    return window && window.resetAt > now ? window : undefined;
  }

  #dropExpired(now: number): void {
    for (const [subject, window] of this.#windows) {
      if (window.resetAt > now) return;
      this.#windows.delete(subject);
    }
  }
}

/**
 * A count-min sketch over the current and the previous period (aligned to
 * multiples of the period): any window of one period lies within those two,
 * so their sum covers it.
 */
class EpochSketch {
  #current = new Uint32Array(SKETCH_ROWS * SKETCH_WIDTH);
  #previous = new Uint32Array(SKETCH_ROWS * SKETCH_WIDTH);
  #epoch = 0;

  constructor(private readonly periodMs: number) {}

  /** Adds the points; answers the subject's count over both periods (never below its true count). */
  add(subject: string, points: number, now: number): number {
    this.#advance(now);
    let counted = Infinity;
    for (let row = 0; row < SKETCH_ROWS; row++) {
      const cell = row * SKETCH_WIDTH + (fnv1a(subject, row) & (SKETCH_WIDTH - 1));
      this.#current[cell] = Math.min(0xffffffff, this.#current[cell]! + points);
      counted = Math.min(counted, this.#current[cell]! + this.#previous[cell]!);
    }
    return counted;
  }

  /** When the points added now have left both periods. */
  clearsBy(now: number): number {
    return (Math.floor(now / this.periodMs) + 2) * this.periodMs;
  }

  #advance(now: number): void {
    const epoch = Math.floor(now / this.periodMs);
    if (epoch === this.#epoch) return;
    if (epoch === this.#epoch + 1) {
      [this.#previous, this.#current] = [this.#current, this.#previous];
      this.#current.fill(0);
    } else {
      this.#current.fill(0);
      this.#previous.fill(0);
    }
    this.#epoch = epoch;
  }
}

/** FNV-1a over the UTF-16 code units, seeded per row so that rows hash independently. */
function fnv1a(text: string, seed: number): number {
  let hash = (0x811c9dc5 ^ Math.imul(seed + 1, 0x9e3779b1)) >>> 0;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  // A final mix, so that the low bits (the cell) depend on every character.
  hash ^= hash >>> 15;
  hash = Math.imul(hash, 0x2c1b3c6d);
  hash ^= hash >>> 12;
  return hash >>> 0;
}
