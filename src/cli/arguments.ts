import { InvalidArgumentError } from 'commander';

/** A parser for an option whose value is a whole number from 1 to `max` (commander prints the error). */
export function wholeNumber(max = 999_999_999): (value: string) => number {
  return (value) => {
    if (!/^\d{1,9}$/.test(value) || Number(value) < 1 || Number(value) > max) throw new InvalidArgumentError(`expected a whole number from 1 to ${max}`);
    return Number(value);
  };
}
