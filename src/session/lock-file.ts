import { linkSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { currentProcess, isStillRunning, type ProcessIdentity } from './process-identity.js';
import { SessionError, describeWriteError } from './session-error.js';
import { SessionBusyError, type WriterLease, type WriterLock } from './writer-lock.js';
import { createWholeFile, createWholeFileOffThread } from './whole-file.js';

export const LOCK_FILE = 'writer.lock';

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

/** False when someone holds the lock already; any other failure is a SessionError. */
function lockNotCreated(error: unknown, path: string): false {
  if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
  throw new SessionError(describeWriteError(error, path));
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
  private readonly held = new Map<string, { path: string; token: string }>();
  private readonly self = currentProcess();
  private readonly onExit = () => {
    for (const { path, token } of this.held.values()) this.removeIfOurs(path, token);
  };

  /**
   * `offThread` (serve): acquireWriter creates the lock file on libuv's threads. Creating a file
   * allocates an inode, which on this machine's disk costs up to half a millisecond of kernel time,
   * and serve's one thread did it for every run. Giving the lock back stays synchronous: reading
   * the token and removing the file in one step leaves no moment where another taker's lock could
   * be the one removed, and no moment where another open in this process sees a lock being let go.
   */
  constructor(
    private readonly sessionsRoot: string,
    private readonly options: { offThread?: boolean } = {},
  ) {}

  /** The lease; with `offThread`, a free lock is created off the thread, and a held one (or a crash's) read synchronously as always. */
  async acquireWriter(sessionId: string): Promise<WriterLease> {
    if (!this.options.offThread) return this.acquireWriterNow(sessionId);
    const path = join(this.sessionsRoot, sessionId, LOCK_FILE);
    const token = randomBytes(8).toString('hex');
    const key = `${sessionId}\u0000${token}`;
    // Known to the exit hook before the file exists: one that ends meanwhile removes it if it got written.
    this.hold(key, { path, token });
    let created: boolean;
    try {
      created = await this.tryCreateOffThread(path, token);
    } catch (error) {
      this.letGo(key);
      throw error;
    }
    if (created) return this.leaseHeld(key, path, token, []);
    this.letGo(key);
    return this.acquireWriterNow(sessionId);
  }

  /** The same, synchronously: the file operations never wait on anything. */
  acquireWriterNow(sessionId: string): WriterLease {
    const path = join(this.sessionsRoot, sessionId, LOCK_FILE);
    const notices: string[] = [];
    // Two rounds: a dead holder's lock is moved aside once, then the file is created afresh.
    for (let round = 0; round < 2; round++) {
      const token = randomBytes(8).toString('hex');
      if (this.tryCreate(path, token)) return this.lease(sessionId, path, token, notices);
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

  /** Creates the lock file exclusively; false when one is already there. */
  private tryCreate(path: string, token: string): boolean {
    try {
      createWholeFile(path, this.recordText(token));
      return true;
    } catch (error) {
      return lockNotCreated(error, path);
    }
  }

  /** tryCreate, off the thread. */
  private async tryCreateOffThread(path: string, token: string): Promise<boolean> {
    try {
      await createWholeFileOffThread(path, this.recordText(token));
      return true;
    } catch (error) {
      return lockNotCreated(error, path);
    }
  }

  private recordText(token: string): string {
    const record: LockRecord = { ...this.self, token, acquiredAt: new Date().toISOString() };
    // Not fsynced: a lock only means something while its process runs, and every process is
    // gone after a power cut. Other processes read it from the page cache at once; a lock a
    // system crash left empty is taken over as abandoned (EMPTY_LOCK_GRACE_MS).
    return `${JSON.stringify(record)}\n`;
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

  private lease(sessionId: string, path: string, token: string, notices: string[]): WriterLease {
    const key = `${sessionId}\u0000${token}`;
    this.hold(key, { path, token });
    return this.leaseHeld(key, path, token, notices);
  }

  private leaseHeld(key: string, path: string, token: string, notices: string[]): WriterLease {
    return {
      notices,
      release: async () => {
        if (!this.letGo(key)) return;
        this.removeIfOurs(path, token);
      },
    };
  }

  private hold(key: string, lock: { path: string; token: string }): void {
    if (this.held.size === 0) process.on('exit', this.onExit);
    this.held.set(key, lock);
  }

  /** False when `key` was let go already. */
  private letGo(key: string): boolean {
    if (!this.held.delete(key)) return false;
    if (this.held.size === 0) process.off('exit', this.onExit);
    return true;
  }

  private removeIfOurs(path: string, token: string): void {
    const record = readRecord(path);
    if (record !== 'missing' && record !== 'unreadable' && record.token === token) rmSync(path, { force: true });
  }
}
