import { close, fsync, open, rename, rm, write } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname } from 'node:path';
import { describeWriteError, SessionError } from './session-error.js';

// State files (board.json, user_ask.json, a workflow's state) written behind, for serve. Each
// is still written the way writeFileAtomic writes (a temp file beside, fsynced, renamed over), so
// a reader, a kill -9 or a power cut finds the old content or the new, never part of either; but
// all of it runs on libuv's threads, not the server's one thread. Under load the fsyncs were that
// thread's largest wait, and every file the thread created meanwhile waited for the journal
// commit they forced. Writes of one file follow each other in order; one made while an earlier
// one is on its way replaces any that has not started, since only the last is kept anyway.
// A turn awaits `settleStateFiles` for its session before it reports how it ended, and its lease
// is released after that, so another process that takes the session next reads what was written.

interface FileSlot {
  /** What the file is to hold once this slot is saved; undefined: removed. */
  latest: string | undefined;
  /** Bumped by every write: the drain saves until what it saved is the latest. */
  version: number;
  draining: Promise<void>;
}

/** State files with a write on its way, by path. */
const slots = new Map<string, FileSlot>();
/**
 * The same paths by folder: a turn settles its own session's files, and under load hundreds of
 * sessions have writes on their way, so scanning every slot per settle grew with the load.
 */
const pathsByDir = new Map<string, Set<string>>();
/** Temp files of writes in progress: not a crash's leftovers, though they carry this process's pid. */
const inFlightTemps = new Set<string>();
/**
 * A write that failed behind, by path: told once, to whoever asks first. The augment that wrote
 * the file asks for its own (`settleStateFile`), so its failure reaches the same place a
 * synchronous write's would (a tool's refusal, a warning); any failure no one asked for is
 * reported by the turn's settle of the whole session, which fails that run.
 */
const failuresByPath = new Map<string, SessionError>();

// The pid says whose temp file it is (removeStaleTempFiles); the rest only has to differ between
// this process's writes, so a counter does, from a random start.
let nextTemp = randomBytes(4).readUInt32BE(0);
function tempNameFor(path: string): string {
  nextTemp = (nextTemp + 1) >>> 0;
  return `${path}.${process.pid}-${nextTemp.toString(16).padStart(8, '0')}.tmp`;
}

type Callback<T> = (error: NodeJS.ErrnoException | null, value: T) => void;
function promised<T>(start: (done: Callback<T>) => void): Promise<T> {
  return new Promise((resolve, reject) => start((error, value) => (error ? reject(error) : resolve(value))));
}

async function writeAll(fd: number, data: Buffer): Promise<void> {
  let offset = 0;
  while (offset < data.length) offset += await promised<number>((done) => write(fd, data, offset, data.length - offset, null, done));
}

/** One whole atomic write, every step off the thread; on failure the temp file is removed and the old file left as it was. */
async function saveFile(path: string, content: string): Promise<void> {
  const temp = tempNameFor(path);
  inFlightTemps.add(temp);
  try {
    // 'wx': never through a link or over a file that is already there.
    const fd = await promised<number>((done) => open(temp, 'wx', 0o600, done));
    try {
      await writeAll(fd, Buffer.from(content, 'utf8'));
      await promised<void>((done) => fsync(fd, done));
    } finally {
      await promised<void>((done) => close(fd, done)).catch(() => undefined);
    }
    await promised<void>((done) => rename(temp, path, done));
  } catch (error) {
    await promised<void>((done) => rm(temp, { force: true }, done)).catch(() => undefined);
    throw error;
  } finally {
    inFlightTemps.delete(temp);
  }
}

async function drain(path: string, slot: FileSlot): Promise<void> {
  let saved = 0;
  while (saved !== slot.version) {
    const version = slot.version;
    const content = slot.latest;
    try {
      if (content === undefined) await promised<void>((done) => rm(path, { force: true }, done));
      else await saveFile(path, content);
    } catch (error) {
      if (!failuresByPath.has(path)) failuresByPath.set(path, new SessionError(describeWriteError(error, path)));
    }
    saved = version;
  }
  slots.delete(path);
  const dir = dirname(path);
  const paths = pathsByDir.get(dir);
  paths?.delete(path);
  if (paths?.size === 0) pathsByDir.delete(dir);
}

function schedule(path: string, content: string | undefined): void {
  const slot = slots.get(path);
  if (slot) {
    slot.latest = content;
    slot.version++;
    return;
  }
  const fresh: FileSlot = { latest: content, version: 1, draining: Promise.resolve() };
  slots.set(path, fresh);
  const dir = dirname(path);
  let paths = pathsByDir.get(dir);
  if (!paths) pathsByDir.set(dir, (paths = new Set()));
  paths.add(path);
  fresh.draining = drain(path, fresh);
}

/** Replaces a state file behind; `settleStateFiles` says when it is saved, or why it was not. */
export function writeStateFile(path: string, content: string): void {
  schedule(path, content);
}

/** Removes a state file behind, after any write of it on its way. */
export function removeStateFile(path: string): void {
  schedule(path, undefined);
}

/** What this process last wrote to `path` and has not finished saving: the content to read, or undefined when it was removed. */
export function pendingStateFile(path: string): { text: string | undefined } | undefined {
  const slot = slots.get(path);
  return slot && { text: slot.latest };
}

/** True for the temp file of a write this process has not finished: not a leftover to clean up. */
export function isStateWriteInProgress(temp: string): boolean {
  return inFlightTemps.has(temp);
}

/** Resolves once the writes so far of one file are saved; rejects, once, with the SessionError the last one met. */
export async function settleStateFile(path: string): Promise<void> {
  for (let slot = slots.get(path); slot; slot = slots.get(path)) await slot.draining;
  const failure = failuresByPath.get(path);
  if (failure === undefined) return;
  failuresByPath.delete(path);
  throw failure;
}

/**
 * Resolves once every state write so far under `dir` is saved; rejects with the first
 * SessionError of a write under `dir` that no one has been told of, once.
 */
export async function settleStateFiles(dir: string): Promise<void> {
  for (let paths = pathsByDir.get(dir); paths; paths = pathsByDir.get(dir)) {
    await Promise.all([...paths].map((path) => slots.get(path)?.draining));
  }
  if (failuresByPath.size === 0) return;
  for (const [path, failure] of failuresByPath) {
    if (dirname(path) !== dir) continue;
    failuresByPath.delete(path);
    throw failure;
  }
}
