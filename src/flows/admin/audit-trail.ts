import { countAuditEventsByBucket, eachAuditEvent, listAuditEvents, sumAuditDetailByBucket, type AuditEventRecord, type AuditFilter } from '../../store/audit-events.js';
import type { Deps } from '../context.js';
import type { AdminDeps } from './webhooks.js';

// The audit trail as an administrator queries it: by user, type, actor,
// outcome and time, newest first, a page at a time; all of it for an
// export; and counted by time bucket for the console's dashboard.

export function auditEvents(deps: AdminDeps, filter: AuditFilter): Promise<AuditEventRecord[]> {
  return listAuditEvents(deps.db, filter);
}

/** Every matching event, newest first, fetched a page at a time. */
export function allAuditEvents(deps: AdminDeps, filter: Omit<AuditFilter, 'limit' | 'after' | 'beforeId'>): AsyncGenerator<AuditEventRecord> {
  return eachAuditEvent(deps.db, filter);
}

export const STATS_RANGES = ['day', 'week', 'month'] as const;
export type StatsRange = (typeof STATS_RANGES)[number];

const HOUR = 3_600_000;
/** Each range's bucket width and count: a day by the hour, a week by six hours, a month (30 days) by the day. */
const RANGES: Record<StatsRange, { bucketMs: number; buckets: number }> = {
  day: { bucketMs: HOUR, buckets: 24 },
  week: { bucketMs: 6 * HOUR, buckets: 28 },
  month: { bucketMs: 24 * HOUR, buckets: 30 },
};

/** What the dashboard charts, each counted from the audit trail. */
const COUNTED = { sign_ins: 'login.succeeded', signups: 'signup', failed_logins: 'login.failed' } as const;
export type SeriesName = keyof typeof COUNTED | 'rate_limit_refusals';

export interface AuditStats {
  range: StatsRange;
  bucketMs: number;
  /** Each bucket's start (ms, on a UTC hour or day); the last one holds now. */
  buckets: number[];
  /** Until the end of the last bucket. */
  until: number;
  series: Record<SeriesName, { counts: number[]; total: number }>;
}

/**
 * The dashboard's series over a range ending with the bucket that holds now,
 * every bucket present (zero where nothing happened). Refusals not yet
 * written by this process are written first, so they count at once.
 */
export async function auditStats(deps: Deps, range: StatsRange): Promise<AuditStats> {
  await deps.refusals?.flush();
  const { bucketMs, buckets: n } = RANGES[range];
  const now = deps.clock.now();
  const first = Math.floor(now / bucketMs) * bucketMs - (n - 1) * bucketMs;
  const until = first + n * bucketMs;
  const buckets = Array.from({ length: n }, (_, i) => first + i * bucketMs);
  const zeros = () => new Array<number>(n).fill(0);
  const series = Object.fromEntries([...Object.keys(COUNTED), 'rate_limit_refusals'].map((name) => [name, { counts: zeros(), total: 0 }])) as AuditStats['series'];
  const add = (name: SeriesName, bucket: number, count: number) => {
    const at = (bucket - first) / bucketMs;
    if (!Number.isInteger(at) || at < 0 || at >= n) return;
    series[name].counts[at]! += count;
    series[name].total += count;
  };
  const byType = new Map<string, SeriesName>(Object.entries(COUNTED).map(([name, type]) => [type, name as SeriesName]));
  const [counts, refusals] = await Promise.all([
    countAuditEventsByBucket(deps.db, [...byType.keys()], first, until, bucketMs),
    sumAuditDetailByBucket(deps.db, 'rate_limit.refused', 'refusals', first, until, bucketMs),
  ]);
  for (const { type, bucket, count } of counts) add(byType.get(type)!, bucket, count);
  for (const { bucket, total } of refusals) add('rate_limit_refusals', bucket, total);
  return { range, bucketMs, buckets, until, series };
}
