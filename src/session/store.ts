import type { SessionHandle } from './session.js';
import type { SessionSummary } from './session-summary.js';
import type { WriterLease } from './writer-lock.js';

/** Which agent a store keeps sessions for: several agents may share one database. */
export interface StoreAgent {
  dir: string;
  name: string;
  id?: string;
}

export interface StoreOpenOptions {
  /** Resume this session (it must exist unless createIfMissing). */
  sessionId?: string;
  /** Resume the newest session; starts a new one when there is none. */
  continueLatest?: boolean;
  /** serve: a client's thread id names a session that may not exist yet. */
  createIfMissing?: boolean;
  /**
   * Opened by someone who is not the session's writer (a board write while a run elsewhere holds
   * the thread): state files may change, the event log is left to the writer.
   */
  observer?: boolean;
}

/** One session's state file, as `statesNamed` finds it. */
export interface NamedState {
  sessionId: string;
  name: string;
  value: unknown;
}

export { SessionBusyError, type WriterLease } from './writer-lock.js';

/**
 * Where sessions live. The agent folder is the default; PostgreSQL lets several processes (serve
 * replicas) share threads. Hosts pick one; the kernel and augments see only SessionHandle.
 */
export interface SessionStore {
  /** Which store this is, for the lines that say where a session is kept. */
  readonly kind: 'folder' | 'postgres';
  /** Where the sessions are, for people: a folder, or the database URL without its password. */
  readonly location: string;
  /**
   * True when other processes may run this store's sessions at the same time, so nothing read
   * from it may be kept between runs (serve reopens a thread for every run).
   */
  readonly shared: boolean;
  open(options: StoreOpenOptions): Promise<SessionHandle>;
  /** Ids of the sessions where something was said, most recently written first. */
  list(): Promise<string[]>;
  /** `auggy sessions` and the `--resume` picker: every session where something was said, newest first. */
  summaries(): Promise<SessionSummary[]>;
  /**
   * Every session's state files whose names start with `prefix`, with their values, read as they
   * stand: what is kept per session but looked up across them (an A2A task, found by its id alone).
   */
  statesNamed(prefix: string): Promise<NamedState[]>;
  /** Takes the session's one writer; SessionBusyError when another process or run holds it. */
  acquireWriter(sessionId: string): Promise<WriterLease>;
  /**
   * Resolves when the store answers now; rejects (StoreUnreachableError) when it cannot be
   * reached. A store on local disk has nothing to check and leaves it out.
   */
  check?(): Promise<void>;
  /** Ends connections and timers; open handles must not be used afterwards. */
  close(): Promise<void>;
}

/**
 * A handle for someone who is not the session's writer: state writes go through, entries it
 * would append are dropped, because the log is the writer's alone.
 */
export function observerView(handle: SessionHandle): SessionHandle {
  return {
    id: handle.id,
    dir: handle.dir,
    resumed: handle.resumed,
    location: handle.location,
    append: () => Promise.resolve(),
    entries: () => handle.entries(),
    readState: (name) => handle.readState(name),
    writeState: (name, value) => handle.writeState(name, value),
    removeState: (name) => handle.removeState(name),
    setAsideState: (name, reason) => handle.setAsideState(name, reason),
    watchState: (listener) => handle.watchState(listener),
    acquireWriter: () => handle.acquireWriter(),
    flush: () => handle.flush(),
    close: () => handle.close(),
  };
}
