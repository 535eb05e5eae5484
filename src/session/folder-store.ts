import { join } from 'node:path';
import { folderStatesNamed } from './folder-states.js';
import { folderSessionSummaries, sessionHasMessage } from './session-summary.js';
import { FileWriterLock, SessionError, StateWatchers, listSessions, openSession, sessionsRoot } from './session.js';
import { observerView, type SessionStore, type StoreAgent, type StoreOpenOptions, type WriterLease } from './store.js';

/** The embedded default: every session a folder under `<agent>/.auggy/sessions/`. */
export function folderStore(agent: StoreAgent): SessionStore {
  const watchers = new StateWatchers();
  // One lock for every session of the folder: a --print, the chat or another server on it is kept out of a session being written.
  const locks = new FileWriterLock(sessionsRoot(agent.dir));
  return {
    kind: 'folder',
    location: sessionsRoot(agent.dir),
    shared: false,
    async open(options: StoreOpenOptions) {
      try {
        const handle = await openSession({ agentDir: agent.dir, agentName: agent.name, agentId: agent.id, watchers, locks, ...options });
        return options.observer ? observerView(handle) : handle;
      } catch (error) {
        throw error instanceof Error ? error : new SessionError(String(error));
      }
    },
    // A chat opened and quit leaves a session with nothing in it: nothing to continue there.
    list: () => Promise.resolve(listSessions(agent.dir).filter((id) => sessionHasMessage(join(sessionsRoot(agent.dir), id, 'events.jsonl')))),
    summaries: () => Promise.resolve(folderSessionSummaries(sessionsRoot(agent.dir))),
    statesNamed: (prefix) => folderStatesNamed(sessionsRoot(agent.dir), prefix),
    acquireWriter(sessionId: string): Promise<WriterLease> {
      return locks.acquireWriter(sessionId);
    },
    close: () => Promise.resolve(),
  };
}
