import { closeSync, fstatSync, linkSync, lstatSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync, type Stats } from 'node:fs';
import { lstat, open, rm, type FileHandle } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { currentProcess, isStillRunning, type ProcessIdentity } from './process-identity.js';
import { SessionError, describeWriteError } from './session-error.js';
import { SessionBusyError, type WriterLease, type WriterLock } from './writer-lock.js';

export const LOCK_FILE = 'writer.lock';

/** A lock file this process created, as it was then. */
interface HeldLock {
  path: string;
  token: string;
  ino: number;
  ctimeMs: number;
}

interface LockRecord extends ProcessIdentity {
  /** Tells this holding apart from any other, so a release never removes someone else's lock. */
  token: string;
  acquiredAt: string;
}

/** A lock file just created and not yet written (a crash in between) is empty; past this age it is abandoned. */
const EMPTY_LOCK_GRACE_MS = 10_000;

function isLockRecord(value: unknown): value is LockRecord {
  if (value === null || typeof value !== 'object') return false;
  const record = value as Record<string, unknown>;
  return typeof record.pid === 'number' && typeof record.startedAt === 'number' && typeof record.host === 'string' && typeof record.token === 'string';
}

function readRecord(path: string): LockRecord | 'missing' | 'unreadable' {
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    return isLockRecord(parsed) ? parsed : 'unreadable';
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : 'unreadable';
  }
}

/** Whether the lock file lstat saw is the one `lock` created (see removeIfOurs). */
function isStillOurs(lock: HeldLock, stats: Stats | undefined): boolean {
  if (stats === undefined || stats.ino !== lock.ino) return false;
  if (stats.ctimeMs === lock.ctimeMs) return true;
  const record = readRecord(lock.path);
  return record !== 'missing' && record !== 'unreadable' && record.token === lock.token;
}

function holderText(record: ProcessIdentity, self: ProcessIdentity): string {
  return record.host === self.host ? `pid ${record.pid}` : `pid ${record.pid} on ${record.host}`;
}

/**
 * One writer per session through a lock file in the session folder, created exclusively
 * (O_EXCL) and holding the pid and start time of its process. A lock whose process is gone is
 * taken over, with a notice. One instance serves every session of a process, so a single exit
 * hook removes whatever it still holds when the process ends abruptly.
 */
export class FileWriterLock implements WriterLock {
  private readonly held = new Map<string, HeldLock>();
  private readonly self = currentProcess();
  private readonly onExit = () => {
    for (const lock of this.held.values()) this.removeIfOurs(lock);
  };

  /**
   * `offThread` (serve): acquireWriter creates the lock file on libuv's threads, and its release
   * removes it there. Creating a file allocates an inode, which on a busy disk made serve's one
   * thread wait a third of a millisecond per run.
   */
  constructor(
    private readonly sessionsRoot: string,
    private readonly options: { offThread?: boolean } = {},
  ) {}

  /** The lease; off the thread when so made, except for a lock someone holds (or a crash left), which is read synchronously. */
  async acquireWriter(sessionId: string): Promise<WriterLease> {
    if (!this.options.offThread) return this.acquireWriterNow(sessionId);
    const path = join(this.sessionsRoot, sessionId, LOCK_FILE);
    const held = await this.tryCreateOffThread(path, randomBytes(8).toString('hex'));
    return held === undefined ? this.acquireWriterNow(sessionId) : this.lease(sessionId, held, [], 'off-thread');
  }

  /** The same, synchronously: the file operations never wait on anything. */
  acquireWriterNow(sessionId: string): WriterLease {
    const path = join(this.sessionsRoot, sessionId, LOCK_FILE);
    const notices: string[] = [];
    // Two rounds: a dead holder's lock is moved aside once, then the file is created afresh.
    for (let round = 0; round < 2; round++) {
      const token = randomBytes(8).toString('hex');
      const held = this.tryCreate(path, token);
      if (held !== undefined) return this.lease(sessionId, held, notices, 'now');
      const holder = readRecord(path);
      if (holder === 'missing') continue;
      if (holder === 'unreadable') {
        if (!this.isAbandoned(path)) throw new SessionBusyError(sessionId, 'pid unknown');
        this.moveAside(path, undefined);
        notices.push(`session ${sessionId} had an unreadable lock file (a crash while taking it); it was taken over`);
        continue;
      }
      if (isStillRunning(holder, this.self)) throw new SessionBusyError(sessionId, holderText(holder, this.self));
      if (this.moveAside(path, holder.token)) {
        notices.push(`session ${sessionId} was locked by auggy ${holderText(holder, this.self)}, which is no longer running; it was taken over`);
      }
    }
    throw new SessionBusyError(sessionId, 'pid unknown');
  }

  /** Creates the lock file exclusively; what it is (to know it again at release), undefined when one is already there. */
  private tryCreate(path: string, token: string): HeldLock | undefined {
    let fd: number;
    try {
      fd = openSync(path, 'wx', 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return undefined;
      throw new SessionError(describeWriteError(error, path));
    }
    let held: HeldLock;
    try {
      const record: LockRecord = { ...this.self, token, acquiredAt: new Date().toISOString() };
      // Not fsynced: a lock only means something while its process runs, and every process is
      // gone after a power cut. Other processes read it from the page cache at once; a lock a
      // system crash left empty is taken over as abandoned (EMPTY_LOCK_GRACE_MS).
      writeSync(fd, `${JSON.stringify(record)}\n`);
      const stats = fstatSync(fd);
      held = { path, token, ino: stats.ino, ctimeMs: stats.ctimeMs };
    } catch (error) {
      closeSync(fd);
      rmSync(path, { force: true });
      throw new SessionError(describeWriteError(error, path));
    }
    closeSync(fd);
    return held;
  }

  /** tryCreate, off the thread. */
  private async tryCreateOffThread(path: string, token: string): Promise<HeldLock | undefined> {
    let file: FileHandle;
    try {
      file = await open(path, 'wx', 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return undefined;
      throw new SessionError(describeWriteError(error, path));
    }
    try {
      const record: LockRecord = { ...this.self, token, acquiredAt: new Date().toISOString() };
      // Not fsynced, as in tryCreate.
      await file.write(`${JSON.stringify(record)}\n`);
      const stats = await file.stat();
      await file.close();
      return { path, token, ino: stats.ino, ctimeMs: stats.ctimeMs };
    } catch (error) {
      await file.close().catch(() => undefined);
      await rm(path, { force: true });
      throw new SessionError(describeWriteError(error, path));
    }
  }

  private isAbandoned(path: string): boolean {
    try {
      return Date.now() - statSync(path).mtimeMs > EMPTY_LOCK_GRACE_MS;
    } catch {
      return true;
    }
  }

  /**
   * Moves a dead holder's lock out of the way. Two processes may both judge it dead: whoever
   * renames second may have moved the first one's fresh lock, so it checks the token and, if so,
   * links it back (link never replaces an existing file).
   */
  private moveAside(path: string, deadToken: string | undefined): boolean {
    const aside = `${path}.stale-${randomBytes(4).toString('hex')}`;
    try {
      renameSync(path, aside);
    } catch {
      return false;
    }
    const moved = readRecord(aside);
    const wasDead = deadToken === undefined ? moved === 'unreadable' : moved !== 'missing' && moved !== 'unreadable' && moved.token === deadToken;
    if (!wasDead) {
      try {
        linkSync(aside, path);
      } catch {
        // Someone created a new lock meanwhile; theirs stands.
      }
    }
    rmSync(aside, { force: true });
    return wasDead;
  }

  /**
   * A lease taken synchronously gives its lock back synchronously, the moment release() is
   * called (a caller may not await it and take the session again at once); one taken off the
   * thread gives it back off the thread, and its release() resolves once the file is gone.
   */
  private lease(sessionId: string, lock: HeldLock, notices: string[], removal: 'now' | 'off-thread'): WriterLease {
    const key = `${sessionId}\u0000${lock.token}`;
    if (this.held.size === 0) process.on('exit', this.onExit);
    this.held.set(key, lock);
    return {
      notices,
      release: async () => {
        if (!this.held.delete(key)) return;
        if (this.held.size === 0) process.off('exit', this.onExit);
        if (removal === 'now') this.removeIfOurs(lock);
        else await this.removeIfOursOffThread(lock);
      },
    };
  }

  /**
   * Removes the lock file if it is still the one this holding created. Another process replaces
   * a lock only by renaming it aside and creating a new file, whose inode differs, or whose
   * change time does when a freed inode number came back: one lstat tells, where reading the
   * token back took an open, a read and a close on every release. Only a lock moved aside and
   * linked back (moveAside's race) keeps its inode with a new change time; its token decides.
   */
  private removeIfOurs(lock: HeldLock): void {
    if (isStillOurs(lock, lstatSync(lock.path, { throwIfNoEntry: false }))) rmSync(lock.path, { force: true });
  }

  /** removeIfOurs, off the thread. */
  private async removeIfOursOffThread(lock: HeldLock): Promise<void> {
    if (isStillOurs(lock, await lstat(lock.path).catch(() => undefined))) await rm(lock.path, { force: true });
  }
}
