// The floor: plain types every layer may use, importing nothing of ours.

/** Where the time comes from: the system's, or a test's that it moves by hand. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}
