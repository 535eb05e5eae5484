import { open, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pidExists } from './process-identity.js';
import { tempNameFor } from './whole-file.js';

/** `board.json.4121-a1b2c3d4.tmp`: the writer's pid, so a later process can tell a crash's leftover from a write in progress. */
const TEMP_NAME = /^.+\.(\d+)-[0-9a-f]{8}\.tmp$/;
/** What earlier releases wrote: no pid, so only a crash could have left one behind a session being opened. */
const LEGACY_TEMP_NAME = /^.+\.[0-9a-f]{8}\.tmp$/;

/**
 * Writes a file so a reader sees the old content or the new, never half of either, even across
 * a crash or power cut: write a temp file beside it, fsync it, rename it over. The fsync is what
 * keeps a power cut from leaving the new name on a file whose data never reached the disk.
 *
 * The folder is not fsynced after the rename. That would only make the new content durable (a
 * power cut right after could otherwise bring back the old, whole file); the session log beside
 * it is not fsynced either, so no promise rests on it (docs/performance.md).
 * On any failure (a full disk) the temp file is removed and the old file is left as it was.
 */
export async function writeFileAtomic(path: string, content: string): Promise<void> {
  const temp = tempNameFor(path);
  try {
    // 'wx': never through a link or over a file that is already there.
    const file = await open(temp, 'wx', 0o600);
    try {
      await file.writeFile(content);
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/**
 * Removes temp files a crash left in a folder: those of a process that is gone, and the nameless
 * ones of earlier releases. One whose writer still runs, this process included, is a write in
 * progress and stays.
 */
export async function removeStaleTempFiles(dir: string): Promise<string[]> {
  const removed: string[] = [];
  for (const name of await readdir(dir)) {
    const match = TEMP_NAME.exec(name);
    const stale = match ? Number(match[1]) !== process.pid && !pidExists(Number(match[1])) : LEGACY_TEMP_NAME.test(name);
    if (!stale) continue;
    await rm(join(dir, name), { force: true });
    removed.push(name);
  }
  return removed;
}
