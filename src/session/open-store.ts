import { folderStore } from './folder-store.js';
import { SessionError } from './session.js';
import type { SessionStore, StoreAgent } from './store.js';
import { storeUrlProblem } from './postgres/store-url.js';

export interface StoreChoice {
  /** `--store` / AUGGY_STORE; absent keeps sessions in the agent folder. */
  url?: string;
  /** Writer lease length for a database store; its default (30 s) unless a test shortens it. */
  leaseMs?: number;
  /** Operator-facing lines (a dropped connection, a lease that could not be released). */
  log(message: string): void;
}

/**
 * The agent's session store: its folder, or PostgreSQL for a `postgres://` URL. The driver is
 * loaded only then, so commands that keep sessions in the folder never pay for it.
 */
export async function openSessionStore(agent: StoreAgent, choice: StoreChoice): Promise<SessionStore> {
  if (choice.url === undefined) return folderStore(agent);
  const problem = storeUrlProblem(choice.url);
  if (problem) throw new SessionError(problem);
  const { openPgStore } = await import('./postgres/pg-store.js');
  return openPgStore({ url: choice.url, agent, leaseMs: choice.leaseMs, log: choice.log });
}
