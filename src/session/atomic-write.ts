import { closeSync, fsyncSync, openSync, readdirSync, renameSync, rmSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, join } from 'node:path';
import { pidExists } from './process-identity.js';
import { isStateWriteInProgress } from './state-files.js';

/** `board.json.4121-a1b2c3d4.tmp`: the writer's pid, so a later process can tell a crash's leftover from a write in progress. */
const TEMP_NAME = /^.+\.(\d+)-[0-9a-f]{8}\.tmp$/;
/** What earlier releases wrote: no pid, so only a crash could have left one behind a session being opened. */
const LEGACY_TEMP_NAME = /^.+\.[0-9a-f]{8}\.tmp$/;

function writeAll(fd: number, data: Buffer): void {
  let offset = 0;
  while (offset < data.length) offset += writeSync(fd, data, offset, data.length - offset);
}

/**
 * Writes a file so a reader sees the old content or the new, never half of either, even across
 * a crash or power cut: write a temp file beside it, fsync it, rename it over. The fsync is what
 * keeps a power cut from leaving the new name on a file whose data never reached the disk.
 *
 * The folder is not fsynced after the rename. That would only make the new content durable (a
 * power cut right after could otherwise bring back the old, whole file); the session log beside
 * it is not fsynced either, so no promise rests on it. Each of those fsyncs forced a journal
 * commit while the server's one thread waited: 8% of its time under load (docs/performance.md).
 * On any failure (a full disk) the temp file is removed and the old file is left as it was.
 */
export function writeFileAtomic(path: string, content: string, mode = 0o600): void {
  const temp = `${path}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  try {
    // 'wx': never through a link or over a file that is already there.
    const fd = openSync(temp, 'wx', mode);
    try {
      writeAll(fd, Buffer.from(content, 'utf8'));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/**
 * Removes temp files a crash left in a folder. One whose writer still runs is a write in
 * progress and stays; of this process's own, only those of a state write still on its way.
 */
export function removeStaleTempFiles(dir: string): string[] {
  const removed: string[] = [];
  for (const name of readdirSync(dir)) {
    const match = TEMP_NAME.exec(name);
    const ownInProgress = match !== null && Number(match[1]) === process.pid && isStateWriteInProgress(join(dir, name));
    const stale = match ? !ownInProgress && (Number(match[1]) === process.pid || !pidExists(Number(match[1]))) : LEGACY_TEMP_NAME.test(name);
    if (!stale) continue;
    rmSync(join(dir, name), { force: true });
    removed.push(basename(name));
  }
  return removed;
}
