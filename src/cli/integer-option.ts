import { UsageError } from '../hosts/exit-codes.js';

/** A whole-number flag value in a range, or a UsageError naming the flag. */
export function integerOption(flag: string, value: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min || n > max) {
    throw new UsageError(`${flag} ${value} is not a whole number from ${min} to ${max}`);
  }
  return n;
}
