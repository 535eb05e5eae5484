import { link, rm, writeFile } from 'node:fs/promises';
import { randomHex } from './ids.js';

/**
 * A temp file's name beside `path`: `board.json.4121-a1b2c3d4.tmp`. The pid says whose it is, so
 * a later process can tell a crash's leftover from a write still in progress (removeStaleTempFiles).
 */
export function tempNameFor(path: string): string {
  return `${path}.${process.pid}-${randomHex(4)}.tmp`;
}

/**
 * Creates a new file that holds all of its content from the moment it exists, or is not there:
 * the content goes to a temp file beside it first, which is then linked to `path` (a link never
 * replaces a file already there, so it fails EEXIST as an exclusive create would). A kill -9 at
 * any step leaves no empty or half-written file under `path`, only a temp file, which the next
 * open of the session removes. A session's log header and a lock file are made this way; 0600,
 * never through a link, not fsynced. Errors are the file system's as thrown, EEXIST included.
 */
export async function createWholeFile(path: string, content: string): Promise<void> {
  const temp = tempNameFor(path);
  try {
    // 'wx': never over a file that is already there, never through a link.
    await writeFile(temp, content, { flag: 'wx', mode: 0o600 });
    await link(temp, path);
  } finally {
    await rm(temp, { force: true });
  }
}
