import { join } from 'node:path';

/** Each session's log, in its folder. */
export const EVENTS_FILE = 'events.jsonl';

export function sessionsRoot(agentDir: string): string {
  return join(agentDir, '.auggy', 'sessions');
}
