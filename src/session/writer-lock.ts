import { SessionError } from './session-error.js';

/**
 * Proof that this process is, until `release`, the one writer of a session. Every store has its
 * own form of it: a lock file in the agent folder, a lease row in a database.
 */
export interface WriterLease {
  /** Sentences for the person about what taking the session involved (a dead holder displaced, a cut line set aside). */
  readonly notices: readonly string[];
  /** Gives the session back; safe to call more than once. */
  release(): Promise<void>;
  /**
   * Aborts when the hold ended without `release()` (a database lease that expired because this
   * process stalled and another took it), so the run stops instead of writing beside the next.
   */
  readonly lost?: AbortSignal;
}

/** Hands out one writer per session at a time, across processes. */
export interface WriterLock {
  /** Becomes the session's one writer, or throws SessionBusyError at once; it never waits. */
  acquireWriter(sessionId: string): Promise<WriterLease>;
}

/** Another live process writes the session now. */
export class SessionBusyError extends SessionError {
  constructor(
    readonly sessionId: string,
    /** Who holds it, as the person should read it: `pid 4121`, `pid 4121 on build-7`. */
    readonly holder: string,
  ) {
    super(`session ${sessionId} is in use by another auggy (${holder}); wait for it or use another session`);
  }
}

/**
 * The leases a database session handle holds now (a turn's, and a host's around it): appends
 * made while it holds none are not a run's. `hold` counts a lease and returns its release, which
 * counts it off once however often it is called.
 */
export class HeldLeases {
  private count = 0;

  get any(): boolean {
    return this.count > 0;
  }

  hold(lease: WriterLease): () => Promise<void> {
    this.count++;
    let released = false;
    return () => {
      if (!released) {
        released = true;
        this.count--;
      }
      return lease.release();
    };
  }
}
