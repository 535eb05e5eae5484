import { lstatSync, renameSync, type Stats } from 'node:fs';
import { readdir, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { removeStaleTempFiles, writeFileAtomic } from './atomic-write.js';
import { LOG_WRITE_REFUSED, type SessionEntry } from './entries.js';
import { appendWhole, endsWhole, openLog, setAsideCutLine } from './event-log.js';
import type { FileWriterLock } from './lock-file.js';
import { readFileNoFollow } from './real-paths.js';
import { SessionError, describeWriteError } from './session-error.js';
import { EVENTS_FILE } from './session-paths.js';
import type { SessionHandle, SessionWriterLease } from './session-handle.js';
import type { StateWatchers } from './state-watchers.js';

/** Appends waiting to go out together in one write, each told how it went. */
interface Batch {
  lines: Buffer[];
  settle: { resolve(): void; reject(error: SessionError): void }[];
}

const ignore = () => undefined;

/**
 * A session in the agent folder: `events.jsonl` and the state files beside it, written on
 * fs/promises (libuv's thread pool) in one queue per handle. Appends made while one is on its
 * way go out together in the next write, as one run of whole lines.
 */
export class FolderSession implements SessionHandle {
  /** The log's size in whole lines as this handle last left it; another size means someone else appended. */
  private knownSize: number | undefined;
  /** Told with the first entries(): what opening found. */
  private readonly openNotices: string[] = [];
  /** This handle's state watchers; close() removes them, so the store keeps nothing of a handle let go. */
  private readonly unwatchers = new Set<() => void>();
  /** The end of this handle's queue of writes: each starts once the one before has settled. */
  private tail: Promise<void> = Promise.resolve();
  /** Appends not yet started, which later appends join while nothing else was queued after them. */
  private openBatch: Batch | undefined;
  /** Why an append was refused: later ones are refused with it until the next lease (see SessionHandle.append). */
  private logFailure: SessionError | undefined;
  /** State files this handle wrote (undefined: removed) whose write has not finished, so reads see them. */
  private readonly pendingStates = new Map<string, { text: string | undefined }>();
  /** Leases this handle holds now; while there is one, the log stays open for their appends. */
  private leaseCount = 0;
  private log: FileHandle | undefined;

  constructor(
    readonly id: string,
    readonly dir: string,
    readonly resumed: boolean,
    private readonly locks: FileWriterLock,
    private readonly watchers: StateWatchers,
    /** The log's size when this handle made it (a new session): what it knows of it already. */
    createdSize?: number,
  ) {
    this.knownSize = createdSize;
  }

  get location(): string {
    return this.eventsFile;
  }

  private get eventsFile(): string {
    return join(this.dir, EVENTS_FILE);
  }

  /** What a crash left beside a session being resumed: temp files of atomic writes whose writer is gone. */
  async removeCrashLeftovers(): Promise<void> {
    await removeStaleTempFiles(this.dir);
  }

  /** Runs `work` once every write queued before it has settled; the queue goes on whatever it gives. */
  private enqueue<T>(work: () => Promise<T>): Promise<T> {
    this.openBatch = undefined;
    const result = this.tail.then(work);
    this.tail = result.then(ignore, ignore);
    return result;
  }

  append(entry: SessionEntry): Promise<void> {
    if (this.logFailure) return Promise.reject(this.logFailure);
    const line = Buffer.from(`${JSON.stringify(entry)}\n`, 'utf8');
    return new Promise((resolve, reject) => {
      if (this.openBatch) {
        this.openBatch.lines.push(line);
        this.openBatch.settle.push({ resolve, reject });
        return;
      }
      const batch: Batch = { lines: [line], settle: [{ resolve, reject }] };
      void this.enqueue(() => this.writeBatch(batch));
      this.openBatch = batch;
    });
  }

  private async writeBatch(batch: Batch): Promise<void> {
    if (this.openBatch === batch) this.openBatch = undefined;
    try {
      if (this.logFailure) throw this.logFailure;
      await this.appendToLog(batch.lines.length === 1 ? batch.lines[0] : Buffer.concat(batch.lines));
      for (const { resolve } of batch.settle) resolve();
    } catch (error) {
      const first = this.logFailure === undefined;
      this.logFailure ??= error instanceof SessionError ? error : new SessionError(describeWriteError(error, this.eventsFile));
      if (first) await this.noteRefusal(this.logFailure.message);
      for (const { reject } of batch.settle) reject(this.logFailure);
    }
  }

  /**
   * After the first refused append, one short line that says so, where the refused lines would
   * have gone: on a full disk it often still fits, and then the log says why the turn stops there
   * instead of looking cut off. When it does not fit either, the log is as the refusal left it.
   */
  private async noteRefusal(reason: string): Promise<void> {
    const note: SessionEntry = { kind: 'record', name: LOG_WRITE_REFUSED, data: { reason }, at: new Date().toISOString() };
    try {
      await this.appendToLog(Buffer.from(`${JSON.stringify(note)}\n`, 'utf8'));
    } catch {
      // Nothing more can be said in the log; the refusal itself still reaches the writer.
    }
  }

  /** Appends whole lines, or nothing of them (appendWhole takes a cut write back). */
  private async appendToLog(data: Buffer): Promise<void> {
    // A turn appends a dozen lines or more: as the session's writer, the log is opened once for them all.
    const log = this.log ?? (await openLog(this.eventsFile));
    try {
      await appendWhole(log, data);
      // Counted before anything else can read the log (entries() sets it afresh).
      if (this.knownSize !== undefined) this.knownSize += data.length;
    } finally {
      if (log !== this.log) await log.close().catch(ignore);
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
    if (partial !== undefined && partial !== '') this.knownSize -= Buffer.byteLength(partial);
    return { entries, warnings };
  }

  async acquireWriter(): Promise<SessionWriterLease> {
    const lease = await this.locks.acquireWriter(this.id);
    let taken: { notices: string[]; changedElsewhere: boolean };
    try {
      taken = await this.enqueue(() => this.takeLog());
    } catch (error) {
      await lease.release();
      throw error;
    }
    this.leaseCount++;
    let released = false;
    return {
      notices: [...lease.notices, ...taken.notices],
      changedElsewhere: taken.changedElsewhere,
      release: async () => {
        if (!released) {
          released = true;
          if (--this.leaseCount === 0) void this.enqueue(() => this.closeLog());
        }
        // The next writer, here or in another process, finds every write this one asked for.
        await this.flush();
        await lease.release();
      },
    };
  }

  /**
   * As the new writer: opens the log for the lease's appends, sets aside a last line a crash
   * cut, and says whether the log is what this handle last knew. An append refused before is
   * forgotten here: the writer starts again from what the log holds.
   */
  private async takeLog(): Promise<{ notices: string[]; changedElsewhere: boolean }> {
    const refusedBefore = this.logFailure !== undefined;
    this.logFailure = undefined;
    const notices: string[] = [];
    let size: number;
    try {
      this.log ??= await openLog(this.eventsFile);
      size = (await this.log.stat()).size;
      // A size this handle knows ends in a whole line: only another size needs its last byte read.
      if (size !== this.knownSize && !(await endsWhole(this.log, size))) {
        const moved = await setAsideCutLine(this.log, this.eventsFile, size);
        size -= moved;
        notices.push(
          `${EVENTS_FILE} of session ${this.id} ended in a cut-off line (${moved} bytes, left by a crash or a full disk); it was moved to ${EVENTS_FILE}.broken`,
        );
      }
    } catch (error) {
      await this.closeLog();
      throw new SessionError(describeWriteError(error, this.eventsFile));
    }
    const changedElsewhere = refusedBefore || (this.knownSize !== undefined && size !== this.knownSize);
    if (this.knownSize !== undefined) this.knownSize = size;
    // Another process took turns here: what augments keep of their state files may be out of date too.
    if (changedElsewhere) for (const name of await this.stateFileNames()) this.watchers.tellOwn(this, name);
    return { notices, changedElsewhere };
  }

  private async closeLog(): Promise<void> {
    if (this.leaseCount > 0 || this.log === undefined) return;
    const log = this.log;
    this.log = undefined;
    // Closing a log that was written whole cannot lose anything.
    await log.close().catch(ignore);
  }

  /** The session's state files (board.json, user_ask.json, ...); files set aside end otherwise. */
  private async stateFileNames(): Promise<string[]> {
    return (await readdir(this.dir)).filter((name) => name.endsWith('.json'));
  }

  readState(name: string): ReturnType<SessionHandle['readState']> {
    const pending = this.pendingStates.get(name);
    if (pending) return pending.text === undefined ? { status: 'missing' } : { status: 'ok', value: JSON.parse(pending.text) as unknown };
    const path = join(this.dir, name);
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
      return { status: 'corrupt', setAsideTo: this.setAsideState(name, 'corrupt') };
    }
  }

  writeState(name: string, value: unknown): Promise<void> {
    const path = join(this.dir, name);
    const text = `${JSON.stringify(value, null, 2)}\n`;
    return this.saveState(name, text, () => writeFileAtomic(path, text));
  }

  removeState(name: string): Promise<void> {
    return this.saveState(name, undefined, () => rm(join(this.dir, name), { force: true }));
  }

  /** Queues a change of one state file; reads see it at once, other handles once it is saved. */
  private saveState(name: string, text: string | undefined, save: () => Promise<void>): Promise<void> {
    const pending = { text };
    this.pendingStates.set(name, pending);
    return this.enqueue(async () => {
      try {
        await save();
      } catch (error) {
        throw new SessionError(describeWriteError(error, join(this.dir, name)));
      } finally {
        if (this.pendingStates.get(name) === pending) this.pendingStates.delete(name);
      }
      this.watchers.changed(this, name);
    });
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
    return this.tail;
  }

  async close(): Promise<void> {
    // The store's watchers live as long as the store (a server's whole life): a listener left
    // there would keep the closed handle's conversation in memory, one per thread ever served.
    for (const unwatch of [...this.unwatchers]) unwatch();
    await this.enqueue(() => this.closeLog());
  }
}
