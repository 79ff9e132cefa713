// When a failed delivery is tried again: exponential backoff from 30 seconds,
// capped at an hour, with jitter so that a receiver coming back up is not hit
// by every waiting event in the same second. With the default 12 attempts a
// receiver may be down about five hours before an event is marked failed.

const BASE_MS = 30_000;
const CAP_MS = 3_600_000;

/** The wait after the `attempts`-th failed attempt (1 = the first): between half and all of the backoff. */
export function retryDelayMs(attempts: number, random: () => number = Math.random): number {
  const backoff = Math.min(CAP_MS, BASE_MS * 2 ** Math.max(0, attempts - 1));
  return Math.round(backoff / 2 + (random() * backoff) / 2);
}

/** The longest wait after the `attempts`-th failure: what a test moves its clock by. */
export function maxRetryDelayMs(attempts: number): number {
  return Math.min(CAP_MS, BASE_MS * 2 ** Math.max(0, attempts - 1));
}
