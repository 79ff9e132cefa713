import { InvalidArgumentError } from 'commander';

/** A parser for an option whose value is a whole number from 1 to `max` (commander prints the error). */
export function wholeNumber(max = 999_999_999): (value: string) => number {
  return (value) => {
    if (!/^\d{1,9}$/.test(value) || Number(value) < 1 || Number(value) > max) throw new InvalidArgumentError(`expected a whole number from 1 to ${max}`);
    return Number(value);
  };
}

const UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/** --expires: a time from now (`30m`, `12h`, `90d`) or an ISO 8601 date or time; answers milliseconds. */
export function parseWhen(now: () => number): (value: string) => number {
  return (value) => {
    const relative = /^(\d{1,6})([mhd])$/.exec(value);
    if (relative) return now() + Number(relative[1]) * UNITS[relative[2]!]!;
    const absolute = /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value) ? Date.parse(value) : NaN;
    if (Number.isNaN(absolute)) throw new InvalidArgumentError('expected a time from now (30m, 12h, 90d) or an ISO 8601 date or time (2025-01-31, 2025-01-31T12:00:00Z)');
    return absolute;
  };
}
