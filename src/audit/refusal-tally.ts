import type { Config } from '../config/config.js';
import type { Clock } from '../kernel/clock.js';
import type { Conn } from '../store/db.js';
import { recordEvents, type PendingAuditEvent } from './recorder.js';

// Rate-limit refusals as audit events, so the dashboard can chart them over a
// month (the metrics counter only knows this process since it started). One
// event per refused request would let a flood of refused requests write a
// flood of rows, which is what the limit is there to stop; so refusals are
// counted in memory and written as one `rate_limit.refused` event per action
// and minute, carrying how many there were.

const WINDOW_MS = 60_000;

interface Open {
  /** The first refusal of the window: the event's time. */
  since: number;
  refusals: number;
}

export class RefusalTally {
  readonly #open = new Map<string, Open>();
  #writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly deps: { config: Config; db: Conn; clock: Clock },
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Counts a refusal; a window that has run its minute is written first. */
  note(action: string): void {
    const now = this.deps.clock.now();
    const open = this.#open.get(action);
    if (open && now - open.since >= WINDOW_MS) void this.flush();
    const current = this.#open.get(action);
    if (current) current.refusals++;
    else this.#open.set(action, { since: now, refusals: 1 });
  }

  /** Writes every open window now (the statistics route, a timer, shutdown); resolves when they are written. */
  flush(): Promise<void> {
    const taken = [...this.#open];
    this.#open.clear();
    if (taken.length === 0) return this.#writing;
    const events: PendingAuditEvent[] = taken.map(([action, { since, refusals }]) => ({
      source: { ip: '', userAgent: '', now: since },
      type: 'rate_limit.refused',
      fields: { userId: null, outcome: 'failure', detail: { action, refusals } },
    }));
    // One write at a time, in order; a failed one gives its counts back to the next.
    this.#writing = this.#writing.then(() =>
      recordEvents(this.deps, this.deps.db, events).catch((error: unknown) => {
        for (const [action, { since, refusals }] of taken) {
          const current = this.#open.get(action);
          this.#open.set(action, { since: Math.min(since, current?.since ?? since), refusals: refusals + (current?.refusals ?? 0) });
        }
        this.onError(error);
      }),
    );
    return this.#writing;
  }
}
