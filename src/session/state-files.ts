import { close, closeSync, fsync, openSync, rename, rm, rmSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname } from 'node:path';
import { describeWriteError, SessionError } from './session-error.js';

// State files (board.json, user_ask.json, a workflow's state) are written the way
// writeFileAtomic writes (a temp file beside, fsynced, renamed over), but only the first half on
// the caller's thread: the temp file is created and written at once, so a full disk is refused to
// the caller as before, and its fsync and rename run behind, on libuv's threads. Under serve the
// fsyncs were the one thread's largest wait (three per demo run, 1–3 ms each on this disk). What
// a reader may see is unchanged: the old content or the new, never part of either. A turn awaits
// `settleStateFiles` for its session before it reports how it ended, and a lease is released after
// that, so another process that takes the session next reads what this one wrote.

/** The newest write (or removal) of each state file that has not reached its name yet, by path. */
const pendingByPath = new Map<string, { text: string | undefined; done: Promise<void> }>();
/** Temp files of writes in progress: not a crash's leftovers, though they carry this process's pid. */
const inFlightTemps = new Set<string>();
/** A write that failed behind, by session folder, for the next settle of that folder to report. */
const failuresByDir = new Map<string, SessionError>();

// The pid says whose temp file it is (removeStaleTempFiles); the rest only has to differ between
// this process's writes, so a counter does, from a random start.
let nextTemp = randomBytes(4).readUInt32BE(0);
function tempNameFor(path: string): string {
  nextTemp = (nextTemp + 1) >>> 0;
  return `${path}.${process.pid}-${nextTemp.toString(16).padStart(8, '0')}.tmp`;
}

function writeTemp(temp: string, content: string, mode: number): number {
  // 'wx': never through a link or over a file that is already there.
  const fd = openSync(temp, 'wx', mode);
  try {
    const data = Buffer.from(content, 'utf8');
    let offset = 0;
    while (offset < data.length) offset += writeSync(fd, data, offset, data.length - offset);
    return fd;
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

function fsyncThenClose(fd: number): Promise<void> {
  return new Promise((resolve, reject) => {
    fsync(fd, (syncError) => {
      close(fd, (closeError) => {
        const error = syncError ?? closeError;
        if (error) reject(error);
        else resolve();
      });
    });
  });
}

const renameBehind = (from: string, to: string) =>
  new Promise<void>((resolve, reject) => rename(from, to, (error) => (error ? reject(error) : resolve())));
const removeBehind = (path: string) => new Promise<void>((resolve) => rm(path, { force: true }, () => resolve()));

function recordFailure(path: string, error: unknown): void {
  const dir = dirname(path);
  if (!failuresByDir.has(dir)) failuresByDir.set(dir, new SessionError(describeWriteError(error, path)));
}

/**
 * Replaces a state file: the temp file is written now (throws a SessionError when it cannot be,
 * leaving no temp file and the old file as it was); fsync and rename follow behind, after any
 * earlier write of the same file, so the last write made is the one that stays.
 */
export function writeStateFile(path: string, content: string, mode = 0o600): void {
  const temp = tempNameFor(path);
  let fd: number;
  try {
    fd = writeTemp(temp, content, mode);
  } catch (error) {
    rmSync(temp, { force: true });
    throw new SessionError(describeWriteError(error, path));
  }
  inFlightTemps.add(temp);
  const earlier = pendingByPath.get(path)?.done ?? Promise.resolve();
  const entry = {
    text: content,
    done: fsyncThenClose(fd)
      .then(() => earlier)
      .then(() => renameBehind(temp, path))
      .catch(async (error: unknown) => {
        await removeBehind(temp);
        recordFailure(path, error);
      })
      .finally(() => {
        inFlightTemps.delete(temp);
        if (pendingByPath.get(path) === entry) pendingByPath.delete(path);
      }),
  };
  pendingByPath.set(path, entry);
}

/** Removes a state file, after any write of it still on its way. */
export function removeStateFile(path: string): void {
  const earlier = pendingByPath.get(path);
  if (!earlier) {
    rmSync(path, { force: true });
    return;
  }
  const entry = {
    text: undefined,
    done: earlier.done.then(() => removeBehind(path)).finally(() => {
      if (pendingByPath.get(path) === entry) pendingByPath.delete(path);
    }),
  };
  pendingByPath.set(path, entry);
}

/** What this process last wrote to `path` and has not finished saving: the file's content to read, or undefined when it was removed. */
export function pendingStateFile(path: string): { text: string | undefined } | undefined {
  const entry = pendingByPath.get(path);
  return entry && { text: entry.text };
}

/** True for the temp file of a write this process has not finished: not a leftover to clean up. */
export function isStateWriteInProgress(temp: string): boolean {
  return inFlightTemps.has(temp);
}

/**
 * Resolves once every state write so far under `dir` (every one, without it) has reached its
 * name; rejects with the first SessionError a write under `dir` met behind, once.
 */
export async function settleStateFiles(dir?: string): Promise<void> {
  const inside = (path: string) => dir === undefined || dirname(path) === dir;
  for (;;) {
    const waiting = [...pendingByPath].filter(([path]) => inside(path)).map(([, entry]) => entry.done);
    if (waiting.length === 0) break;
    await Promise.all(waiting);
  }
  for (const [failedDir, failure] of failuresByDir) {
    if (dir !== undefined && failedDir !== dir) continue;
    failuresByDir.delete(failedDir);
    throw failure;
  }
}
