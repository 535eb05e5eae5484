import { renameSync, writeFileSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';

/**
 * Writes a file so a reader sees the old content or the new, never half of either:
 * write a temp file beside it, then rename over. On failure the temp file is removed.
 */
export function writeFileAtomic(path: string, content: string, mode = 0o600): void {
  const temp = `${path}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    writeFileSync(temp, content, { mode });
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
