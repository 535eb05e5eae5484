import type { Option } from 'commander';
import { UsageError } from '../hosts/exit-codes.js';

/**
 * A numeric default, kept as the text a person would type (integerOption reads both alike) and
 * shown in --help as the number, not as commander's quoted string.
 */
export function numberDefault(option: Option, value: number): Option {
  return option.default(String(value), String(value));
}

/** A whole-number flag value in a range, or a UsageError naming the flag. */
export function integerOption(flag: string, value: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min || n > max) {
    throw new UsageError(`${flag} ${value} is not a whole number from ${min} to ${max}`);
  }
  return n;
}
