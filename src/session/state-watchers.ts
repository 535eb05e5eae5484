import type { SessionHandle } from './session-handle.js';

/**
 * The handles of one store on each session, so a state write through one reaches the others in
 * this process once it is saved (a board write from the client while a run holds the session).
 */
export class StateWatchers {
  private readonly bySession = new Map<string, Set<{ handle: object; listener: (name: string) => void }>>();

  add(handle: SessionHandle, listener: (name: string) => void): () => void {
    const entry = { handle, listener };
    const set = this.bySession.get(handle.id) ?? new Set();
    set.add(entry);
    this.bySession.set(handle.id, set);
    return () => {
      set.delete(entry);
      if (set.size === 0) this.bySession.delete(handle.id);
    };
  }

  /** Tells the handle's own listeners that `name` changed: another process wrote it. */
  tellOwn(handle: SessionHandle, name: string): void {
    for (const entry of this.bySession.get(handle.id) ?? []) if (entry.handle === handle) entry.listener(name);
  }

  /** Tells every other handle on the session that `name` changed. */
  changed(by: SessionHandle, name: string): void {
    for (const entry of this.bySession.get(by.id) ?? []) if (entry.handle !== by) entry.listener(name);
  }
}
