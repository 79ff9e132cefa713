/**
 * Group commit for small writes that many requests make at once (a session's
 * touch): writes queued while the event loop runs one turn, or while the
 * previous batch is still in the database, go out together as one statement,
 * and each caller's promise settles when the statement that carried its
 * write has (a failure reaches every caller of that batch). A later write for
 * the same key replaces a queued one. At most `maxBatch` writes wait: a full
 * queue is sent at once, beside the batch in flight, so memory stays bounded
 * and one statement's size too. close() sends what is queued and waits for it.
 */
export class WriteBatcher<K, V> {
  #queued = new Map<K, V>();
  #waiting: Array<{ resolve: () => void; reject: (error: unknown) => void }> = [];
  #inFlight = new Set<Promise<void>>();
  #scheduled = false;

  constructor(
    private readonly write: (batch: Map<K, V>) => Promise<void>,
    private readonly maxBatch = 100,
  ) {}

  add(key: K, value: V): Promise<void> {
    this.#queued.delete(key);
    this.#queued.set(key, value);
    const done = new Promise<void>((resolve, reject) => this.#waiting.push({ resolve, reject }));
    if (this.#queued.size >= this.maxBatch) this.#send();
    else if (!this.#scheduled && this.#inFlight.size === 0) {
      this.#scheduled = true;
      setImmediate(() => {
        this.#scheduled = false;
        if (this.#inFlight.size === 0) this.#send();
      });
    }
    return done;
  }

  /** Queued writes not yet sent (for tests and metrics). */
  get queued(): number {
    return this.#queued.size;
  }

  async close(): Promise<void> {
    while (this.#queued.size > 0 || this.#inFlight.size > 0) {
      if (this.#queued.size > 0) this.#send();
      await Promise.allSettled([...this.#inFlight]);
    }
  }

  #send(): void {
    if (this.#queued.size === 0) return;
    const batch = this.#queued;
    const waiting = this.#waiting;
    this.#queued = new Map();
    this.#waiting = [];
    const sent: Promise<void> = this.write(batch).then(
      () => waiting.forEach((w) => w.resolve()),
      (error: unknown) => waiting.forEach((w) => w.reject(error)),
    );
    this.#inFlight.add(sent);
    // What queued up meanwhile goes out as soon as this batch is done.
    void sent.finally(() => {
      this.#inFlight.delete(sent);
      if (this.#inFlight.size === 0) this.#send();
    });
  }
}
