import { closeSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { open, rm } from 'node:fs/promises';

// A new file that holds all of its content or is not there: created exclusively ('wx': never over
// a file already there, never through a link), 0600, and removed again when its content could not
// all be written (a full disk), so no reader finds half of it. A session's log header and a lock
// file are made this way. Not fsynced. Errors are the file system's as thrown: EEXIST when the
// file was already there, which the callers tell apart.

export function createWholeFile(path: string, content: string): void {
  const fd = openSync(path, 'wx', 0o600);
  try {
    writeFileSync(fd, content);
  } catch (error) {
    closeSync(fd);
    rmSync(path, { force: true });
    throw error;
  }
  closeSync(fd);
}

/** createWholeFile on libuv's threads: creating a file allocates an inode, which serve's one thread should not wait for. */
export async function createWholeFileOffThread(path: string, content: string): Promise<void> {
  const file = await open(path, 'wx', 0o600);
  try {
    await file.writeFile(content);
    await file.close();
  } catch (error) {
    await file.close().catch(() => undefined);
    await rm(path, { force: true });
    throw error;
  }
}
