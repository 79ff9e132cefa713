import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import type { TestContext } from 'node:test';

// Timing comparisons that hold on a loaded machine. The two kinds of request
// are interleaved in random order (so drift and bursts of other work fall on
// both alike), and the difference of their medians is judged by its own
// bootstrap confidence interval: two kinds are told apart when the 99 %
// interval of median(a) - median(b) excludes zero. A real difference of a
// tenth of a millisecond shows there; a bound on the medians alone let it
// through. As a 99 % interval misses zero once in a hundred samples of equal
// kinds, a difference counts only when a second, independent sample confirms
// it in the same direction: a false alarm about once in twenty thousand.

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function shuffled<T>(values: readonly T[]): T[] {
  const out = [...values];
  for (let i = out.length - 1; i > 0; i--) {
    const j = randomInt(0, i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

function resample(values: readonly number[]): number[] {
  return values.map(() => values[randomInt(0, values.length)]!);
}

const RESAMPLES = 2000;
const LEVEL = 0.99;

/** The percentile bootstrap interval of median(a) - median(b) at LEVEL. */
function bootstrapInterval(a: readonly number[], b: readonly number[]): [number, number] {
  const differences = Array.from({ length: RESAMPLES }, () => median(resample(a)) - median(resample(b))).sort((x, y) => x - y);
  const tail = ((1 - LEVEL) / 2) * RESAMPLES;
  return [differences[Math.floor(tail)]!, differences[Math.ceil(RESAMPLES - 1 - tail)]!];
}

export interface TimingComparison {
  a: { median: number; n: number };
  b: { median: number; n: number };
  /** median(a) - median(b), ms. */
  difference: number;
  /** Its 99 % bootstrap interval, ms. */
  interval: [number, number];
  /** Whether the interval excludes zero: -1 (a faster), 1 (a slower) or 0 (not told apart). */
  direction: -1 | 0 | 1;
}

export interface TimingOptions {
  /**
   * Awaited after each timed request, untimed: work the request leaves
   * behind (a mail sent after the answer) must finish before the next is
   * timed, or it would slow whichever kind comes next.
   */
  settle?: () => Promise<unknown>;
}

/**
 * Times `rounds` requests of each kind, one of each per round in random
 * order, one at a time, and compares their medians by a bootstrap interval.
 */
export async function compareTimings(rounds: number, a: () => Promise<unknown>, b: () => Promise<unknown>, options: TimingOptions = {}): Promise<TimingComparison> {
  const times: [number[], number[]] = [[], []];
  const kinds = [a, b];
  for (let round = 0; round < rounds; round++) {
    for (const kind of shuffled([0, 1])) {
      const started = performance.now();
      await kinds[kind]!();
      times[kind]!.push(performance.now() - started);
      await options.settle?.();
    }
  }
  const [ma, mb] = [median(times[0]), median(times[1])];
  const interval = bootstrapInterval(times[0], times[1]);
  const direction = interval[0] > 0 ? 1 : interval[1] < 0 ? -1 : 0;
  return { a: { median: ma, n: rounds }, b: { median: mb, n: rounds }, difference: ma - mb, interval, direction };
}

export function describeComparison(c: TimingComparison): string {
  const ms = (x: number) => `${x.toFixed(3)} ms`;
  return `medians ${ms(c.a.median)} vs ${ms(c.b.median)} over ${c.a.n} rounds each: difference ${ms(c.difference)}, 99 % interval [${ms(c.interval[0])}, ${ms(c.interval[1])}]`;
}

/**
 * Fails when `a` and `b` take different times: when two independent samples
 * of `rounds` each put the difference on the same side of zero.
 */
export async function assertSameTime(
  t: TestContext,
  rounds: number,
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
  options: TimingOptions & { label?: string } = {},
): Promise<void> {
  const label = options.label ?? '';
  const first = await compareTimings(rounds, a, b, options);
  t.diagnostic(`${label}${describeComparison(first)}`);
  if (first.direction === 0) return;
  const second = await compareTimings(rounds, a, b, options);
  t.diagnostic(`${label}again: ${describeComparison(second)}`);
  assert.ok(second.direction !== first.direction, `${label}told apart twice: ${describeComparison(first)}; then ${describeComparison(second)}`);
}
