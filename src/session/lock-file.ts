import { readFileSync, rmSync } from 'node:fs';
import { link, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { randomHex } from './ids.js';
import { currentProcess, isStillRunning, type ProcessIdentity } from './process-identity.js';
import { SessionError, describeWriteError } from './session-error.js';
import { SessionBusyError, type WriterLease, type WriterLock } from './writer-lock.js';
import { createWholeFile } from './whole-file.js';

export const LOCK_FILE = 'writer.lock';

interface LockRecord extends ProcessIdentity {
  /** Tells this holding apart from any other, so a release never removes someone else's lock. */
  token: string;
  acquiredAt: string;
}

/** Rounds of taking a lock: a dead holder's lock is moved aside, then the file is created afresh; a third for a racing taker. */
const ROUNDS = 3;

function isLockRecord(value: unknown): value is LockRecord {
  if (value === null || typeof value !== 'object') return false;
  const record = value as Record<string, unknown>;
  return typeof record.pid === 'number' && typeof record.startedAt === 'number' && typeof record.host === 'string' && typeof record.token === 'string';
}

function parseRecord(text: string): LockRecord | 'unreadable' {
  try {
    const parsed: unknown = JSON.parse(text);
    return isLockRecord(parsed) ? parsed : 'unreadable';
  } catch {
    return 'unreadable';
  }
}

async function readRecord(path: string): Promise<LockRecord | 'missing' | 'unreadable'> {
  try {
    return parseRecord(await readFile(path, 'utf8'));
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : 'unreadable';
  }
}

/**
 * Removes the lock at `path` if it is still this holding's. Synchronous, because the exit hook
 * that gives back what a process still holds cannot wait, and a release uses the same step: the
 * token is read and the file removed with nothing of this process run in between.
 */
function removeIfOurs(path: string, token: string): void {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return;
  }
  const record = parseRecord(text);
  if (record !== 'unreadable' && record.token === token) rmSync(path, { force: true });
}

function holderText(record: ProcessIdentity, self: ProcessIdentity): string {
  return record.host === self.host ? `pid ${record.pid}` : `pid ${record.pid} on ${record.host}`;
}

/**
 * One writer per session through a lock file in the session folder. It is created whole
 * (createWholeFile: the record is there from the moment the file exists), so a lock that cannot
 * be read is never a writer starting up: it is a crash's (a power cut before the page cache
 * reached the disk, or an earlier release, which created the file empty and wrote it after) and
 * is taken over at once. A lock whose process is gone is taken over, with a notice. One instance
 * serves every session of a process, so a single exit hook removes whatever it still holds when
 * the process ends abruptly.
 */
export class FileWriterLock implements WriterLock {
  private readonly held = new Map<string, { path: string; token: string }>();
  private readonly self = currentProcess();
  private readonly onExit = () => {
    for (const { path, token } of this.held.values()) removeIfOurs(path, token);
  };

  constructor(private readonly sessionsRoot: string) {}

  async acquireWriter(sessionId: string): Promise<WriterLease> {
    const path = join(this.sessionsRoot, sessionId, LOCK_FILE);
    const notices: string[] = [];
    let holder: LockRecord | undefined;
    for (let round = 0; round < ROUNDS; round++) {
      const token = randomHex(8);
      const key = `${sessionId}\u0000${token}`;
      // Known to the exit hook before the file exists: one that runs meanwhile removes it if it got made.
      this.hold(key, { path, token });
      let created: boolean;
      try {
        created = await this.tryCreate(path, token);
      } catch (error) {
        this.letGo(key);
        throw error;
      }
      if (created) return this.lease(key, path, token, notices);
      this.letGo(key);
      const found = await readRecord(path);
      if (found === 'missing') continue;
      if (found === 'unreadable') {
        if (await this.moveAside(path, undefined)) notices.push(`session ${sessionId} had an unreadable lock file (left by a crash); it was taken over`);
        continue;
      }
      holder = found;
      if (isStillRunning(found, this.self)) throw new SessionBusyError(sessionId, holderText(found, this.self));
      if (await this.moveAside(path, found.token)) {
        notices.push(`session ${sessionId} was locked by auggy ${holderText(found, this.self)}, which is no longer running; it was taken over`);
      }
    }
    // Every round lost a race with other takers: one of them has it now.
    throw new SessionBusyError(sessionId, holder && isStillRunning(holder, this.self) ? holderText(holder, this.self) : 'one that took it a moment ago');
  }

  /** Creates the lock file whole; false when one is already there. */
  private async tryCreate(path: string, token: string): Promise<boolean> {
    const record: LockRecord = { ...this.self, token, acquiredAt: new Date().toISOString() };
    try {
      // Not fsynced: a lock only means something while its process runs, and every process is
      // gone after a power cut. Other processes read it from the page cache at once.
      await createWholeFile(path, `${JSON.stringify(record)}\n`);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw new SessionError(describeWriteError(error, path));
    }
  }

  /**
   * Moves a dead holder's lock out of the way. Two processes may both judge it dead: whoever
   * renames second may have moved the first one's fresh lock, so it checks the token and, if so,
   * links it back (link never replaces an existing file).
   */
  private async moveAside(path: string, deadToken: string | undefined): Promise<boolean> {
    const aside = `${path}.stale-${randomHex(4)}`;
    try {
      await rename(path, aside);
    } catch {
      return false;
    }
    const moved = await readRecord(aside);
    const wasDead = deadToken === undefined ? moved === 'unreadable' : moved !== 'missing' && moved !== 'unreadable' && moved.token === deadToken;
    if (!wasDead) {
      try {
        await link(aside, path);
      } catch {
        // Someone created a new lock meanwhile; theirs stands.
      }
    }
    await rm(aside, { force: true });
    return wasDead;
  }

  /** The lease of a lock created under `key`, which the exit hook knows already. */
  private lease(key: string, path: string, token: string, notices: string[]): WriterLease {
    return {
      notices,
      release: () => {
        if (this.letGo(key)) removeIfOurs(path, token);
        return Promise.resolve();
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
}
