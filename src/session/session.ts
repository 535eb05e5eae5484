import { closeSync, existsSync, lstatSync, readdirSync, renameSync, rmSync, statSync, type Stats } from 'node:fs';
import { chmod, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { removeStaleTempFiles, writeFileAtomic } from './atomic-write.js';
import { pendingStateFile, removeStateFile, settleStateFile, settleStateFiles, writeStateFile } from './state-files.js';
import type { SessionEntry, SessionHeader } from './entries.js';
import { appendWholeLine, appendWholeLineTo, logSize, openLogForAppend, setAsideCutLine } from './event-log.js';
import { isValidSessionId, newSessionId } from './ids.js';
import { FileWriterLock } from './lock-file.js';
import { createWholeFile, createWholeFileOffThread } from './whole-file.js';
import { ensureRealFolders, readFileNoFollow, refuseLinksIn } from './real-paths.js';
import { SessionError, describeWriteError } from './session-error.js';
import { HeldLeases, SessionBusyError, type WriterLease } from './writer-lock.js';
import { sessionHasMessage } from './session-summary.js';

export { SessionError } from './session-error.js';
export { SessionBusyError, type WriterLease, type WriterLock } from './writer-lock.js';
export { FileWriterLock } from './lock-file.js';

const EVENTS_FILE = 'events.jsonl';

/** The session's writer lease, and whether someone else wrote the session since this handle last saw it. */
export interface SessionWriterLease extends WriterLease {
  /** True when another process appended since this handle last read or wrote: its transcript is out of date. */
  readonly changedElsewhere: boolean;
}

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
  /** Appends one whole line; throws SessionError with a readable reason (disk full, ...) and leaves no part of it behind. */
  append(entry: SessionEntry): void;
  /** Every readable entry; a line that cannot be read is skipped and reported. */
  entries(): { entries: SessionEntry[]; warnings: string[] };
  readState(name: string): { status: 'missing' } | { status: 'ok'; value: unknown } | { status: 'corrupt'; setAsideTo: string };
  /** Replaces a state file. Parts another writer changed meanwhile, and this one did not, are kept. */
  writeState(name: string, value: unknown): void;
  /**
   * Resolves once the state file's writes so far are saved; rejects with a SessionError when the
   * last one was not. A store that writes behind reports a failed write here to whoever asks
   * first, so the writer can say so where a synchronous write would have thrown.
   */
  stateSaved(name: string): Promise<void>;
  removeState(name: string): void;
  /** Keeps a state file that does not hold what it should aside for inspection; says where it went. */
  setAsideState(name: string, reason: string): string;
  /** Told the name of a state file another writer changed; returns the unsubscribe. */
  watchState(listener: (name: string) => void): () => void;
  /** Resolves once every write so far is saved; rejects with SessionError when one was not. */
  flush(): Promise<void>;
  /** Flushes and lets go of the handle. */
  close(): Promise<void>;
  /**
   * Becomes the session's one writer across processes, or throws SessionBusyError at once. A
   * turn holds it from start to end; whatever a crash left (a cut last line) is repaired here.
   */
  acquireWriter(): Promise<SessionWriterLease>;
}


export function sessionsRoot(agentDir: string): string {
  return join(agentDir, '.auggy', 'sessions');
}

class FolderSession implements SessionHandle {
  /** The log's size as this handle last left it; another size means another writer appended. */
  private knownSize: number | undefined;
  /** Told with the first entries(): what opening repaired. */
  private openNotices: string[] = [];
  /** This handle's state watchers; close() removes them, so the store keeps nothing of a handle let go. */
  private readonly unwatchers = new Set<() => void>();
  /** While this handle holds a lease, the log stays open for its appends. */
  private readonly leases = new HeldLeases(() => this.closeLog());
  private openLog: number | undefined;
  constructor(
    readonly id: string,
    readonly dir: string,
    readonly resumed: boolean,
    private readonly locks: FileWriterLock,
    private readonly watchers: StateWatchers = new StateWatchers(),
    /** State files finish their fsync and rename behind (serve); otherwise each write is whole before it returns. */
    private readonly writeBehind = false,
  ) {}

  get location(): string {
    return this.eventsFile;
  }

  private get eventsFile(): string {
    return join(this.dir, EVENTS_FILE);
  }

  /**
   * What a crash may have left: temp files of atomic writes, and a cut last line, which is moved
   * aside only when no other live process writes the session (then it may be a line in flight).
   */
  repairOnOpen(): void {
    removeStaleTempFiles(this.dir);
    let lease: WriterLease;
    try {
      lease = this.locks.acquireWriterNow(this.id);
    } catch (error) {
      if (error instanceof SessionBusyError) return;
      throw error;
    }
    try {
      this.openNotices.push(...lease.notices, ...this.setAsideCutLine());
    } finally {
      void lease.release();
    }
  }

  private setAsideCutLine(): string[] {
    let moved: number;
    try {
      moved = setAsideCutLine(this.eventsFile);
    } catch (error) {
      throw new SessionError(describeWriteError(error, this.eventsFile));
    }
    if (moved === 0) return [];
    return [`${EVENTS_FILE} of session ${this.id} ended in a cut-off line (${moved} bytes, left by a crash or a full disk); it was moved to ${EVENTS_FILE}.broken`];
  }

  append(entry: SessionEntry): void {
    try {
      // A turn appends a dozen lines or more: as the session's writer, the log is opened once for them all.
      const line = JSON.stringify(entry);
      let added: number;
      if (this.leases.any) {
        this.openLog ??= openLogForAppend(this.eventsFile);
        added = appendWholeLineTo(this.openLog, line);
      } else {
        added = appendWholeLine(this.eventsFile, line);
      }
      if (this.knownSize !== undefined) this.knownSize += added;
    } catch (error) {
      throw new SessionError(describeWriteError(error, this.eventsFile));
    }
  }

  entries(): { entries: SessionEntry[]; warnings: string[] } {
    const warnings = this.openNotices.splice(0);
    const entries: SessionEntry[] = [];
    const raw = readFileNoFollow(this.eventsFile);
    this.knownSize = raw.length;
    const lines = raw.toString('utf8').split('\n');
    // The text after the last newline is not a whole line yet: a line in flight, or one a crash cut (repaired before the next append).
    const partial = lines.pop();
    lines.forEach((line, index) => {
      if (line.trim() === '') return;
      try {
        entries.push(JSON.parse(line) as SessionEntry);
      } catch {
        warnings.push(`${EVENTS_FILE} line ${index + 1} cannot be read (probably damaged by a crash) and was skipped`);
      }
    });
    if (partial !== undefined && partial.trim() !== '') this.knownSize -= Buffer.byteLength(partial);
    return { entries, warnings };
  }

  async acquireWriter(): Promise<SessionWriterLease> {
    const lease = await this.locks.acquireWriter(this.id);
    try {
      const notices = [...lease.notices, ...this.setAsideCutLine()];
      const size = logSize(this.eventsFile);
      const changedElsewhere = this.knownSize !== undefined && size !== this.knownSize;
      if (this.knownSize !== undefined) this.knownSize = size;
      // Another process took turns here: what augments keep of their state files may be out of date too.
      if (changedElsewhere) this.stateFileNames().forEach((name) => this.watchers.tellOwn(this, name));
      return { notices, changedElsewhere, release: this.leases.hold(lease) };
    } catch (error) {
      await lease.release();
      throw error;
    }
  }

  private closeLog(): void {
    if (this.openLog === undefined) return;
    const fd = this.openLog;
    this.openLog = undefined;
    try {
      closeSync(fd);
    } catch {
      // Closing a log that was written whole cannot lose anything.
    }
  }

  /** The session's state files (board.json, user_ask.json, ...); files set aside end otherwise. */
  private stateFileNames(): string[] {
    return readdirSync(this.dir).filter((name) => name.endsWith('.json'));
  }

  readState(name: string): ReturnType<SessionHandle['readState']> {
    const path = join(this.dir, name);
    // A write of this process still on its way to the file: it is what the file will hold.
    const pending = pendingStateFile(path);
    if (pending) return pending.text === undefined ? { status: 'missing' } : { status: 'ok', value: JSON.parse(pending.text) as unknown };
    // No exception (and its stack) for a file that is not there yet: under serve most threads
    // have no board yet, and the board is read every round.
    let stats: Stats | undefined;
    try {
      stats = lstatSync(path, { throwIfNoEntry: false });
    } catch (error) {
      throw new SessionError(`${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    }
    if (stats === undefined) return { status: 'missing' };
    let text: string;
    try {
      text = readFileNoFollow(path).toString('utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return { status: 'missing' };
      if (code === 'ELOOP') throw new SessionError(`${path} is a symbolic link; auggy reads no state through a link, so replace it with a real file`);
      throw new SessionError(`${path} cannot be read (${code ?? String(error)})`);
    }
    try {
      return { status: 'ok', value: JSON.parse(text) as unknown };
    } catch {
      // Keep the bad file for inspection; the session carries on without it.
      const setAsideTo = `${path}.corrupt-${Date.now()}`;
      renameSync(path, setAsideTo);
      return { status: 'corrupt', setAsideTo };
    }
  }

  writeState(name: string, value: unknown): void {
    const path = join(this.dir, name);
    const text = `${JSON.stringify(value, null, 2)}\n`;
    if (this.writeBehind) {
      // Throws a SessionError at once when the file cannot be written; its fsync and rename follow behind (state-files.ts).
      writeStateFile(path, text);
    } else {
      try {
        writeFileAtomic(path, text);
      } catch (error) {
        throw new SessionError(describeWriteError(error, path));
      }
    }
    this.watchers.changed(this, name);
  }

  stateSaved(name: string): Promise<void> {
    // Without writing behind, each write was whole (or threw) before writeState returned.
    return this.writeBehind ? settleStateFile(join(this.dir, name)) : Promise.resolve();
  }

  removeState(name: string): void {
    if (this.writeBehind) removeStateFile(join(this.dir, name));
    else rmSync(join(this.dir, name), { force: true });
    this.watchers.changed(this, name);
  }

  setAsideState(name: string, reason: string): string {
    const path = join(this.dir, name);
    const setAsideTo = `${path}.${reason}-${Date.now()}`;
    renameSync(path, setAsideTo);
    return setAsideTo;
  }

  watchState(listener: (name: string) => void): () => void {
    const remove = this.watchers.add(this, listener);
    const unwatch = () => {
      this.unwatchers.delete(unwatch);
      remove();
    };
    this.unwatchers.add(unwatch);
    return unwatch;
  }

  flush(): Promise<void> {
    // Log lines are written before append returns; state files finish their fsync and rename behind.
    return settleStateFiles(this.dir);
  }

  async close(): Promise<void> {
    // The store's watchers live as long as the store (a server's whole life): a listener left
    // there would keep the closed handle's conversation in memory, one per thread ever served.
    for (const unwatch of [...this.unwatchers]) unwatch();
    this.closeLog();
    await this.flush();
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

  /** Tells the handle's own listeners that `name` changed: another process wrote it. */
  tellOwn(handle: SessionHandle, name: string): void {
    for (const entry of this.bySession.get(handle.id) ?? []) if (entry.handle === handle) entry.listener(name);
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
    .filter((name) => isValidSessionId(name) && existsSync(join(root, name, EVENTS_FILE)))
    .map((name) => ({ name, mtime: statSync(join(root, name, EVENTS_FILE)).mtimeMs }))
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
  /** The writer lock, shared by every session a process opens (serve); one of its own otherwise. */
  locks?: FileWriterLock;
  /**
   * State files finish their fsync and rename behind, and `flush()` waits for them: serve, whose
   * one thread would otherwise wait out three fsyncs a run. Without it each write is whole on return.
   */
  writeBehind?: boolean;
}

function hasEventLog(dir: string): boolean {
  try {
    // A new thread's session has none: no exception (and its stack) for that.
    return lstatSync(join(dir, EVENTS_FILE), { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}

/** An existing session to resume (not yet repaired), or the id a new one is to get. */
type Located = { found: FolderSession } | { create: string };

function locateSession(options: OpenSessionOptions, locks: FileWriterLock): Located {
  const root = sessionsRoot(options.agentDir);
  let id = options.sessionId;
  if (id !== undefined && !isValidSessionId(id)) {
    throw new SessionError(`"${id}" is not a session id (letters, digits, - and _ only, at most 128 characters)`);
  }
  // Checked before anything is listed or created: a linked .auggy/sessions is refused outright.
  ensureRealFolders(options.agentDir, ['.auggy', 'sessions'], { create: false });
  // A chat opened and quit leaves a session with nothing in it: nothing to continue there.
  if (id === undefined && options.continueLatest) id = listSessions(options.agentDir).find((candidate) => sessionHasMessage(join(root, candidate, 'events.jsonl')));
  if (id !== undefined) {
    const dir = ensureRealFolders(options.agentDir, ['.auggy', 'sessions', id], { create: false });
    if (existsSync(dir)) refuseLinksIn(dir, `.auggy/sessions/${id}`);
    if (hasEventLog(dir)) return { found: new FolderSession(id, dir, true, locks, options.watchers, options.writeBehind) };
    if (!options.createIfMissing) {
      throw new SessionError(`no session "${id}" in ${root}; run without --session to start one`);
    }
  }
  return { create: id ?? newSessionId() };
}

export function openSession(options: OpenSessionOptions): SessionHandle {
  const locks = options.locks ?? new FileWriterLock(sessionsRoot(options.agentDir));
  const located = locateSession(options, locks);
  if ('create' in located) return createSession(options, located.create, locks);
  located.found.repairOnOpen();
  return located.found;
}

/**
 * openSession, with a new session's folder and log made on libuv's threads: creating each
 * allocates an inode, which on this machine's disk costs up to half a millisecond of kernel time,
 * more than the rest of opening a thread. Reads, and the repair of a session being resumed, stay
 * synchronous.
 */
export async function openSessionOffThread(options: OpenSessionOptions): Promise<SessionHandle> {
  const locks = options.locks ?? new FileWriterLock(sessionsRoot(options.agentDir));
  for (;;) {
    const located = locateSession(options, locks);
    if ('found' in located) {
      // Synchronously, as openSession does: its lock is taken and given back before anything
      // else in this process could try to take the session (a run beside a board write).
      located.found.repairOnOpen();
      return located.found;
    }
    const dir = join(sessionsRoot(options.agentDir), located.create);
    // Another open in this process is making this session now (a person's board write beside the
    // thread's first run): it is the same session once made, so wait for it and look again.
    const making = creationsInProgress.get(dir);
    if (making) {
      await making.catch(() => undefined);
      continue;
    }
    const created = createSessionOffThread(options, located.create, locks);
    creationsInProgress.set(dir, created);
    try {
      return await created;
    } finally {
      if (creationsInProgress.get(dir) === created) creationsInProgress.delete(dir);
    }
  }
}

/** Sessions openSessionOffThread is making now, by folder: made off the thread, two opens of one new id would race. */
const creationsInProgress = new Map<string, Promise<SessionHandle>>();

function sessionHeader(options: OpenSessionOptions, id: string): string {
  const header: SessionHeader = {
    kind: 'header',
    version: 1,
    sessionId: id,
    agentId: options.agentId,
    agentName: options.agentName,
    createdAt: new Date().toISOString(),
  };
  return `${JSON.stringify(header)}\n`;
}

async function createSessionOffThread(options: OpenSessionOptions, id: string, locks: FileWriterLock): Promise<SessionHandle> {
  const sessionsDir = ensureRealFolders(options.agentDir, ['.auggy', 'sessions'], { create: true });
  const dir = join(sessionsDir, id);
  try {
    await mkdir(dir, { mode: 0o700 });
    await chmod(dir, 0o700);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw new SessionError(describeWriteError(error, dir));
    // Made by someone else meanwhile: it must still be a real folder, which the synchronous check says.
    ensureRealFolders(options.agentDir, ['.auggy', 'sessions', id], { create: false });
  }
  const path = join(dir, EVENTS_FILE);
  try {
    await createWholeFileOffThread(path, sessionHeader(options, id));
  } catch (error) {
    throw new SessionError(describeWriteError(error, path));
  }
  return new FolderSession(id, dir, false, locks, options.watchers, options.writeBehind);
}

function createSession(options: OpenSessionOptions, id: string, locks: FileWriterLock): SessionHandle {
  const dir = ensureRealFolders(options.agentDir, ['.auggy', 'sessions', id], { create: true });
  const path = join(dir, EVENTS_FILE);
  try {
    // A header cut short by a full disk would be a session no one can read: it is all there or no log is.
    createWholeFile(path, sessionHeader(options, id));
  } catch (error) {
    throw new SessionError(describeWriteError(error, path));
  }
  return new FolderSession(id, dir, false, locks, options.watchers, options.writeBehind);
}
