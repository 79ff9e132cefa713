import type { Registry } from 'prom-client';

// A Prometheus histogram for the hot path. prom-client's own Histogram
// checks and hashes its labels on every observe(), even through a child made
// by labels(): a few microseconds per request. Here a series is found once
// per label set and observing is a bucket search and three additions; the
// exposition (names, le labels, cumulative buckets, _sum, _count) is built
// at scrape time, in prom-client's format, through its registry.

export interface Series {
  observe(value: number): void;
}

interface SeriesData extends Series {
  readonly labels: Readonly<Record<string, string>>;
  readonly counts: number[];
  sum: number;
  count: number;
}

export class FastHistogram<L extends string> {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly #series = new Map<string, SeriesData>();
  readonly #labelNames: readonly L[];
  readonly #bounds: readonly number[];

  constructor(
    readonly name: string,
    readonly help: string,
    labelNames: readonly L[],
    buckets: readonly number[],
    registry: Registry,
  ) {
    this.#labelNames = labelNames;
    this.#bounds = buckets;
    registry.registerMetric(this as never);
  }

  /** The series of one label set; keep it to observe without any look-up. */
  series(values: Readonly<Record<L, string>>): Series {
    const key = this.#labelNames.map((name) => values[name]).join('\u0000');
    let series = this.#series.get(key);
    if (!series) {
      const bounds = this.#bounds;
      const data: SeriesData = {
        labels: Object.fromEntries(this.#labelNames.map((name) => [name, values[name]])),
        counts: new Array<number>(bounds.length + 1).fill(0),
        sum: 0,
        count: 0,
        observe(value) {
          let i = 0;
          while (i < bounds.length && value > bounds[i]!) i++;
          data.counts[i]!++;
          data.sum += value;
          data.count++;
        },
      };
      series = data;
      this.#series.set(key, series);
    }
    return series;
  }

  /** prom-client's registry reads this at scrape time. */
  get(): { name: string; help: string; type: string; aggregator: string; values: Array<{ labels: Record<string, string | number>; value: number; metricName: string }> } {
    const values = [];
    for (const { labels, counts, sum, count } of this.#series.values()) {
      let cumulative = 0;
      for (let i = 0; i < counts.length; i++) {
        cumulative += counts[i]!;
        const le = i < this.#bounds.length ? this.#bounds[i]! : '+Inf';
        values.push({ labels: { ...labels, le }, value: cumulative, metricName: `${this.name}_bucket` });
      }
      values.push({ labels, value: sum, metricName: `${this.name}_sum` }, { labels, value: count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  reset(): void {
    this.#series.clear();
  }
}
