import { randomInt } from 'node:crypto';

// Timing comparisons that hold on a loaded machine: the two kinds of request
// are interleaved in random order (so drift and bursts of other work fall on
// both alike), and the noise is estimated from the data itself, by an A/A
// split: the difference between the medians of two random halves of the
// same kind of request. A difference between the kinds counts only when it
// exceeds the 99th percentile of those A/A differences. Halves hold half
// the samples, so that noise bound is about 3.6 standard errors of the
// compared difference: a false alarm about once in three thousand runs.

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

/** The 99th percentile of |median(half) - median(other half)| over random splits of each sample. */
function aaNoise(samples: ReadonlyArray<readonly number[]>, splits = 400): number {
  const differences: number[] = [];
  for (const values of samples) {
    for (let i = 0; i < splits; i++) {
      const mixed = shuffled(values);
      const half = Math.floor(mixed.length / 2);
      differences.push(Math.abs(median(mixed.slice(0, half)) - median(mixed.slice(half))));
    }
  }
  differences.sort((a, b) => a - b);
  return differences[Math.floor(differences.length * 0.99)]!;
}

export interface TimingComparison {
  a: { median: number; n: number };
  b: { median: number; n: number };
  /** median(a) - median(b), ms. */
  difference: number;
  /** The A/A noise bound, ms. */
  noise: number;
  /** Whether the difference exceeds the noise. */
  distinguishable: boolean;
}

/**
 * Times `rounds` requests of each kind, one of each per round in random
 * order, one at a time, and compares their medians against the A/A noise.
 */
export async function compareTimings(rounds: number, a: () => Promise<unknown>, b: () => Promise<unknown>): Promise<TimingComparison> {
  const times: [number[], number[]] = [[], []];
  const kinds = [a, b];
  for (let round = 0; round < rounds; round++) {
    for (const kind of shuffled([0, 1])) {
      const started = performance.now();
      await kinds[kind]!();
      times[kind]!.push(performance.now() - started);
    }
  }
  const [ma, mb] = [median(times[0]), median(times[1])];
  const noise = aaNoise(times);
  return { a: { median: ma, n: rounds }, b: { median: mb, n: rounds }, difference: ma - mb, noise, distinguishable: Math.abs(ma - mb) > noise };
}

export function describeComparison(c: TimingComparison): string {
  const ms = (x: number) => `${x.toFixed(3)} ms`;
  return `medians ${ms(c.a.median)} vs ${ms(c.b.median)} over ${c.a.n} rounds each: difference ${ms(c.difference)}, A/A noise bound ${ms(c.noise)}`;
}
