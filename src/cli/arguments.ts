import { InvalidArgumentError } from 'commander';

/** Parses an option's value as a whole number from 1 (commander prints the error). */
export function positiveInt(value: string): number {
  if (!/^\d{1,9}$/.test(value) || Number(value) < 1) throw new InvalidArgumentError('expected a whole number from 1');
  return Number(value);
}
