import type { WriterLease } from './store.js';

/**
 * The writer of a session in the agent folder. One process serves an agent folder, and within
 * it the hosts keep one run per session (serve's thread registry, the chat's one turn at a time),
 * so the hold is granted at once; a lock file shared between processes belongs here.
 */
export function acquireFolderWriter(sessionId: string): Promise<WriterLease> {
  return Promise.resolve({ sessionId, lost: new AbortController().signal, release: () => Promise.resolve() });
}
