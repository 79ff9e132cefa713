import { InvalidArgumentError } from 'commander';

const UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/** --since: a time ago (`30m`, `24h`, `7d`) or an ISO 8601 date or time; answers milliseconds. */
export function parseSince(now: () => number): (value: string) => number {
  return (value) => {
    const relative = /^(\d{1,6})([mhd])$/.exec(value);
    if (relative) return now() - Number(relative[1]) * UNITS[relative[2]!]!;
    const absolute = /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value) ? Date.parse(value) : NaN;
    if (Number.isNaN(absolute)) throw new InvalidArgumentError('expected a time ago (30m, 24h, 7d) or an ISO 8601 date or time (2024-05-01, 2024-05-01T12:00:00Z)');
    return absolute;
  };
}
