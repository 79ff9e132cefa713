/**
 * Lookups that many requests make at once (each request's session, on a
 * database across the network): those asked for while the event loop runs
 * one turn go out together as one statement, and each caller gets the answer
 * for its own key. A statement's round trip and the driver's work for it
 * then serve every request the turn read, instead of one each. A batch is
 * sent in the turn after its first lookup, so it reads what was committed
 * before each of its callers asked; batches do not wait for each other. A
 * failure reaches every caller of its batch. At most `maxBatch` keys go in
 * one statement: a full batch is sent at once.
 */
export class LookupBatcher<K, V> {
  #queued = new Map<K, Array<{ resolve: (value: V | undefined) => void; reject: (error: unknown) => void }>>();
  /** The earliest time among the queued callers. */
  #earliest = Infinity;
  #scheduled = false;

  constructor(
    /** Reads the keys' values as of `now` (the earliest time among the batch's callers); a key it has none for is absent. */
    private readonly read: (keys: K[], now: number) => Promise<Map<K, V>>,
    private readonly maxBatch = 100,
  ) {}

  get(key: K, now: number): Promise<V | undefined> {
    return new Promise((resolve, reject) => {
      let waiting = this.#queued.get(key);
      if (!waiting) this.#queued.set(key, (waiting = []));
      waiting.push({ resolve, reject });
      this.#earliest = Math.min(this.#earliest, now);
      if (this.#queued.size >= this.maxBatch) this.#send();
      else if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => {
          this.#scheduled = false;
          this.#send();
        });
      }
    });
  }

  #send(): void {
    const batch = this.#queued;
    const now = this.#earliest;
    if (batch.size === 0) return;
    this.#queued = new Map();
    this.#earliest = Infinity;
    this.read([...batch.keys()], now).then(
      (found) => {
        for (const [key, waiting] of batch) for (const w of waiting) w.resolve(found.get(key));
      },
      (error: unknown) => {
        for (const waiting of batch.values()) for (const w of waiting) w.reject(error);
      },
    );
  }
}
