import { appendFileSync, chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from './atomic-write.js';
import type { SessionEntry, SessionHeader } from './entries.js';
import { isValidSessionId, newSessionId } from './ids.js';
import { acquireFolderWriter } from './folder-writer.js';
import type { WriterLease } from './store.js';
import { sessionHasMessage } from './session-summary.js';

export class SessionError extends Error {}

/**
 * An open session: the append-only event log plus small state files. Reads and writes are
 * synchronous for the kernel and augments; a store that talks to a server keeps what it loaded and
 * writes behind, and `flush()` says when everything so far is saved.
 */
export interface SessionHandle {
  readonly id: string;
  /**
   * The session's folder in the agent folder store. A store without folders gives its location
   * here (not a path); code meant for every store uses `location` and `setAsideState`.
   */
  readonly dir: string;
  readonly resumed: boolean;
  /** Where a person finds the whole session: a file, or the store and the session id. */
  readonly location: string;
  /** Appends one entry; throws SessionError with a readable reason (disk full, ...) on failure. */
  append(entry: SessionEntry): void;
  /** Every readable entry; a torn last line (crash mid-write) is skipped and reported. */
  entries(): { entries: SessionEntry[]; warnings: string[] };
  readState(name: string): { status: 'missing' } | { status: 'ok'; value: unknown } | { status: 'corrupt'; setAsideTo: string };
  /** Replaces a state file. Parts another writer changed meanwhile, and this one did not, are kept. */
  writeState(name: string, value: unknown): void;
  removeState(name: string): void;
  /** Keeps a state file that does not hold what it should aside for inspection; says where it went. */
  setAsideState(name: string, reason: string): string;
  /** Told the name of a state file another writer changed; returns the unsubscribe. */
  watchState(listener: (name: string) => void): () => void;
  /** Takes this session's one writer for a turn; SessionBusyError when someone else holds it. */
  acquireWriter(): Promise<WriterLease>;
  /** Reloads what another process wrote since this handle read it; true when the log grew. */
  refresh(): Promise<boolean>;
  /** Resolves once every write so far is saved; rejects with SessionError when one was not. */
  flush(): Promise<void>;
  /** Flushes and lets go of the handle. */
  close(): Promise<void>;
}


export function sessionsRoot(agentDir: string): string {
  return join(agentDir, '.auggy', 'sessions');
}

function describeWriteError(error: unknown, path: string): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOSPC') return `the disk is full, so ${path} could not be written; free some space and resume with --session`;
  if (code === 'EACCES' || code === 'EPERM') return `${path} is not writable; check the folder's permissions`;
  if (code === 'EROFS') return `${path} is on a read-only file system`;
  return `${path} could not be written (${error instanceof Error ? error.message : String(error)})`;
}

class FolderSession implements SessionHandle {
  constructor(
    readonly id: string,
    readonly dir: string,
    readonly resumed: boolean,
    private readonly watchers: StateWatchers = new StateWatchers(),
  ) {}

  get location(): string {
    return this.eventsFile;
  }

  private get eventsFile(): string {
    return join(this.dir, 'events.jsonl');
  }

  append(entry: SessionEntry): void {
    try {
      appendFileSync(this.eventsFile, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
    } catch (error) {
      throw new SessionError(describeWriteError(error, this.eventsFile));
    }
  }

  entries(): { entries: SessionEntry[]; warnings: string[] } {
    const warnings: string[] = [];
    const entries: SessionEntry[] = [];
    const lines = readFileSync(this.eventsFile, 'utf8').split('\n');
    lines.forEach((line, index) => {
      if (line.trim() === '') return;
      try {
        entries.push(JSON.parse(line) as SessionEntry);
      } catch {
        warnings.push(`events.jsonl line ${index + 1} is incomplete (probably cut off by a crash) and was skipped`);
      }
    });
    return { entries, warnings };
  }

  readState(name: string): ReturnType<SessionHandle['readState']> {
    const path = join(this.dir, name);
    if (!existsSync(path)) return { status: 'missing' };
    try {
      return { status: 'ok', value: JSON.parse(readFileSync(path, 'utf8')) as unknown };
    } catch {
      // Keep the bad file for inspection; the session carries on without it.
      const setAsideTo = `${path}.corrupt-${Date.now()}`;
      renameSync(path, setAsideTo);
      return { status: 'corrupt', setAsideTo };
    }
  }

  writeState(name: string, value: unknown): void {
    const path = join(this.dir, name);
    try {
      writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`);
    } catch (error) {
      throw new SessionError(describeWriteError(error, path));
    }
    this.watchers.changed(this, name);
  }

  removeState(name: string): void {
    rmSync(join(this.dir, name), { force: true });
    this.watchers.changed(this, name);
  }

  setAsideState(name: string, reason: string): string {
    const path = join(this.dir, name);
    const setAsideTo = `${path}.${reason}-${Date.now()}`;
    renameSync(path, setAsideTo);
    return setAsideTo;
  }

  watchState(listener: (name: string) => void): () => void {
    return this.watchers.add(this, listener);
  }

  acquireWriter(): Promise<WriterLease> {
    return acquireFolderWriter(this.id);
  }

  refresh(): Promise<boolean> {
    // Nothing is cached: every read goes to the files.
    return Promise.resolve(false);
  }

  flush(): Promise<void> {
    // Every write above is done before it returns.
    return Promise.resolve();
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

/**
 * The handles of one store on each session, so a state write through one reaches the others in
 * this process at once (a board write from the client while a run holds the session).
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

  /** Tells every other handle on the session that `name` changed. */
  changed(by: SessionHandle, name: string): void {
    for (const entry of this.bySession.get(by.id) ?? []) if (entry.handle !== by) entry.listener(name);
  }
}

/** Session ids of an agent folder, newest first. */
export function listSessions(agentDir: string): string[] {
  const root = sessionsRoot(agentDir);
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .filter((name) => isValidSessionId(name) && existsSync(join(root, name, 'events.jsonl')))
    .map((name) => ({ name, mtime: statSync(join(root, name, 'events.jsonl')).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime || b.name.localeCompare(a.name))
    .map((s) => s.name);
}

export interface OpenSessionOptions {
  agentDir: string;
  /** Handles opened with the same watchers hear of each other's state writes. */
  watchers?: StateWatchers;
  agentName: string;
  agentId?: string;
  /** Resume this session (must exist unless createIfMissing). */
  sessionId?: string;
  /** Resume the newest session anything was said in; starts a new one when there is none. */
  continueLatest?: boolean;
  /** serve: a client's thread id names a session that may not exist yet. */
  createIfMissing?: boolean;
}

export function openSession(options: OpenSessionOptions): SessionHandle {
  const root = sessionsRoot(options.agentDir);
  let id = options.sessionId;
  if (id !== undefined && !isValidSessionId(id)) {
    throw new SessionError(`"${id}" is not a session id (letters, digits, - and _ only, at most 128 characters)`);
  }
  // A chat opened and quit leaves a session with nothing in it: nothing to continue there.
  if (id === undefined && options.continueLatest) id = listSessions(options.agentDir).find((candidate) => sessionHasMessage(join(root, candidate, 'events.jsonl')));
  if (id !== undefined) {
    const dir = join(root, id);
    if (existsSync(join(dir, 'events.jsonl'))) return new FolderSession(id, dir, true, options.watchers);
    if (!options.createIfMissing) {
      throw new SessionError(`no session "${id}" in ${root}; run without --session to start one`);
    }
  }
  return createSession(options, id ?? newSessionId());
}

function createSession(options: OpenSessionOptions, id: string): SessionHandle {
  const dir = join(sessionsRoot(options.agentDir), id);
  const header: SessionHeader = {
    kind: 'header',
    version: 1,
    sessionId: id,
    agentId: options.agentId,
    agentName: options.agentName,
    createdAt: new Date().toISOString(),
  };
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700);
    writeFileSync(join(dir, 'events.jsonl'), `${JSON.stringify(header)}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    throw new SessionError(describeWriteError(error, join(dir, 'events.jsonl')));
  }
  return new FolderSession(id, dir, false, options.watchers);
}
