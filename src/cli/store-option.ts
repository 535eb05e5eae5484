import type { Command } from 'commander';
import { storeUrlProblem } from '../session/postgres/store-url.js';
import { UsageError } from '../hosts/exit-codes.js';

/** --store: every command that opens a session takes it. */
export function addStoreOption(command: Command): Command {
  return command.option('--store <url>', 'keep sessions in PostgreSQL (postgres://user@host:port/db) instead of the agent folder (also AUGGY_STORE)');
}

export interface StoreOptionValues {
  store?: string;
}

/**
 * The store the flags and environment name. AUGGY_STORE_LEASE_MS shortens the writer lease (30 s)
 * for tests that kill a replica; it is not meant for production.
 */
export function storeChoiceFrom(options: StoreOptionValues, env: NodeJS.ProcessEnv = process.env): { url?: string; leaseMs?: number } {
  const url = options.store ?? (env.AUGGY_STORE || undefined);
  if (url !== undefined && url.trim() === '')
    throw new UsageError('--store is empty; pass a postgres:// URL or leave it out to keep sessions in the agent folder');
  const problem = url === undefined ? undefined : storeUrlProblem(url);
  if (problem) throw new UsageError(problem);
  const rawLease = env.AUGGY_STORE_LEASE_MS;
  if (rawLease === undefined || rawLease === '') return { url };
  const leaseMs = Number(rawLease);
  if (!Number.isSafeInteger(leaseMs) || leaseMs < 300 || leaseMs > 30_000) {
    throw new UsageError(`AUGGY_STORE_LEASE_MS ${rawLease} is not a whole number of milliseconds from 300 to 30000`);
  }
  return { url, leaseMs };
}
