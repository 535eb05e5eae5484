import { chmodSync, closeSync, constants, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, readlinkSync, type Stats } from 'node:fs';
import { join, relative } from 'node:path';
import { SessionError, describeWriteError } from './session-error.js';

/** Refuses to open a symbolic link; 0 where the platform has no such flag (Windows). */
export const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;

/** A file's bytes, refusing (ELOOP) when the path is itself a link. */
export function readFileNoFollow(path: string): Buffer {
  const fd = openSync(path, constants.O_RDONLY | NO_FOLLOW);
  try {
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

function lstatOrMissing(path: string): Stats | undefined {
  // Without throwing: an exception's stack for every new session's folder cost more than the lstat.
  return lstatSync(path, { throwIfNoEntry: false });
}

function linkRefusal(shown: string, path: string, kind: 'folder' | 'file'): SessionError {
  let target = '';
  try {
    target = ` (to ${readlinkSync(path)})`;
  } catch {
    // The link vanished meanwhile; the sentence stands without its target.
  }
  return new SessionError(`${shown} is a symbolic link${target}; auggy writes nothing under .auggy through a link, so replace it with a real ${kind}`);
}

/**
 * Makes sure each folder from `base` down through `segments` is a real folder (created 0700 when
 * missing), never a link: a linked `.auggy/sessions` would send the conversation somewhere else.
 */
export function ensureRealFolders(base: string, segments: readonly string[], options: { create: boolean }): string {
  let path = base;
  for (const segment of segments) {
    path = join(path, segment);
    const shown = relative(base, path);
    const stats = lstatOrMissing(path);
    if (stats?.isSymbolicLink()) throw linkRefusal(shown, path, 'folder');
    if (stats && !stats.isDirectory()) throw new SessionError(`${shown} is a file where auggy keeps a folder; move it away`);
    if (stats || !options.create) continue;
    try {
      mkdirSync(path, { mode: 0o700 });
      chmodSync(path, 0o700);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw new SessionError(describeWriteError(error, path));
    }
  }
  return path;
}

/** Refuses a session folder that holds a link: appending or renaming there could write outside the agent folder. */
export function refuseLinksIn(dir: string, shownAs: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isSymbolicLink()) throw linkRefusal(`${shownAs}/${entry.name}`, join(dir, entry.name), 'file');
  }
}
