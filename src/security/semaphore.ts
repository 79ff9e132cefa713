// A counting semaphore for async work. It holds state (the running count and the
// FIFO of waiters), hence a class.
export class Semaphore {
  #limit: number;
  #active = 0;
  readonly #waiting: Array<() => void> = [];

  constructor(limit: number) {
    this.#limit = checkLimit(limit);
  }

  // Raising the limit admits waiters at once; lowering it lets running tasks
  // finish and admits no one until the count is back under the new limit.
  setLimit(limit: number): void {
    this.#limit = checkLimit(limit);
    this.#admit();
  }

  /** Tasks holding a slot now. */
  get running(): number {
    return this.#active;
  }

  /** Tasks waiting for a slot. */
  get queued(): number {
    return this.#waiting.length;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    // Newcomers queue behind existing waiters so nobody is overtaken.
    if (this.#active < this.#limit && this.#waiting.length === 0) {
      this.#active++;
    } else {
      // #admit counts the slot before resolving, so it is ours when we wake.
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    }
    try {
      return await task();
    } finally {
      this.#active--;
      this.#admit();
    }
  }

  #admit(): void {
    while (this.#active < this.#limit && this.#waiting.length > 0) {
      this.#active++;
      this.#waiting.shift()!();
    }
  }
}

function checkLimit(limit: number): number {
  if (!Number.isInteger(limit) || limit < 1) {
    throw new RangeError(`semaphore limit must be an integer >= 1, got ${limit}`);
  }
  return limit;
}
