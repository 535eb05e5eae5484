import type { SessionEntry } from './entries.js';
import type { WriterLease } from './writer-lock.js';

/** The session's writer lease, and whether someone else wrote the session since this handle last saw it. */
export interface SessionWriterLease extends WriterLease {
  /**
   * True when the log holds other than what this handle last read or wrote (another process
   * appended, or an append of this handle was refused): its transcript is out of date.
   */
  readonly changedElsewhere: boolean;
}

/**
 * An open session: the append-only event log plus small state files. Reads are synchronous, from
 * the store or from what the handle loaded; every write returns a promise that settles once it is
 * saved, or rejects with a SessionError saying why it was not. Each handle makes its writes in the
 * order they were asked for, one after another.
 */
export interface SessionHandle {
  readonly id: string;
  /** The session's own folder, in a store that keeps one (the agent folder); undefined in a database. */
  readonly dir: string | undefined;
  readonly resumed: boolean;
  /** Where a person finds the whole session: a file, or the store and the session id. */
  readonly location: string;
  /**
   * Appends one whole line; a refusal (a full disk, ...) leaves no part of it behind. The appends
   * made after a refused one are refused with it until the handle next becomes the writer
   * (acquireWriter), so the log holds the start of what happened and never skips a part of it.
   */
  append(entry: SessionEntry): Promise<void>;
  /** Every readable entry; a line that cannot be read is skipped and reported. */
  entries(): { entries: SessionEntry[]; warnings: string[] };
  /** A state file as this handle last wrote it, saved or not yet, or else as the store holds it. */
  readState(name: string): { status: 'missing' } | { status: 'ok'; value: unknown } | { status: 'corrupt'; setAsideTo: string };
  /** Replaces a state file whole; when that fails the file stays as it was. */
  writeState(name: string, value: unknown): Promise<void>;
  removeState(name: string): Promise<void>;
  /** Keeps a state file that does not hold what it should aside for inspection; says where it went. */
  setAsideState(name: string, reason: string): string;
  /** Told the name of a state file another handle or process changed; returns the unsubscribe. */
  watchState(listener: (name: string) => void): () => void;
  /** Resolves once every write asked for so far is saved or refused; never rejects, since each write tells its own refusal. */
  flush(): Promise<void>;
  /** Waits for the writes asked for so far and lets go of the handle. */
  close(): Promise<void>;
  /**
   * Becomes the session's one writer across processes, or throws SessionBusyError at once. A
   * turn holds it from start to end; whatever a crash left (a cut last line) is repaired here.
   * Its release waits for the writes asked for before it, so the next writer finds them all.
   */
  acquireWriter(): Promise<SessionWriterLease>;
}
