import { rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { SessionError, describeWriteError } from './session-error.js';
import { randomHex } from './ids.js';

/**
 * Resolves when a session could be written under `root`: a probe file is written and removed in
 * it, or in the nearest folder above it that exists (the first turn makes the rest), never above
 * the agent folder. A probe rather than `access(W_OK)`, which says yes to root on any folder.
 */
export async function checkFolderWritable(root: string, agentDir: string): Promise<void> {
  let dir = root;
  for (;;) {
    const found = await stat(dir).catch((error: NodeJS.ErrnoException) => error);
    if (!(found instanceof Error)) {
      if (!found.isDirectory()) throw new SessionError(`${dir} is a file where auggy keeps sessions in a folder; move it away`);
      break;
    }
    if (found.code !== 'ENOENT' || dir === agentDir || relative(agentDir, dir).startsWith('..')) {
      throw new SessionError(`sessions cannot be kept under ${root}: ${describeWriteError(found, dir)}`);
    }
    dir = dirname(dir);
  }
  const probe = join(dir, `.auggy-probe-${randomHex(4)}`);
  try {
    await writeFile(probe, '', { flag: 'wx' });
  } catch (error) {
    throw new SessionError(describeWriteError(error, dir, 'try again'));
  }
  await rm(probe, { force: true });
}
