import { closeSync, constants, fstatSync, openSync, readSync, realpathSync, type Stats } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';

/** No file an agent folder is made of comes near this; anything bigger is a mistake or an attack. */
export const MAX_AGENT_FILE_BYTES = 1024 * 1024;

export type FileProblem = 'missing' | 'outside' | 'not-a-file' | 'too-large' | 'unreadable';

/** A file's text, or what kept it from being read: `message` completes a sentence that starts with the file's name. */
export type FileRead = { ok: true; text: string } | { ok: false; problem: FileProblem; message: string };

function kindOf(stats: Stats): string {
  if (stats.isFIFO()) return 'a named pipe (FIFO)';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  if (stats.isDirectory()) return 'a folder';
  if (stats.isSocket()) return 'a socket';
  return 'a special file';
}

function bytesText(bytes: number): string {
  return `${bytes.toLocaleString('en-US')} bytes`;
}

function tooLarge(bytes: number, limit: number): FileRead {
  const limitText = limit === MAX_AGENT_FILE_BYTES ? `${bytesText(limit)} (1 MiB)` : bytesText(limit);
  return {
    ok: false,
    problem: 'too-large',
    message: `is ${bytesText(bytes)}, more than the ${limitText} a file of the agent folder may hold; make it smaller`,
  };
}

/**
 * Reads a file that must be a regular file of at most `maxBytes`. It is opened non-blocking and
 * checked on the open descriptor before any byte is read, so a named pipe cannot hang the
 * loader and a device such as /dev/zero is never read.
 */
export function readBoundedFile(path: string, maxBytes = MAX_AGENT_FILE_BYTES): FileRead {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { ok: false, problem: 'missing', message: 'does not exist' };
    return { ok: false, problem: 'unreadable', message: `cannot be read (${code ?? String(error)}); check its permissions` };
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return { ok: false, problem: 'not-a-file', message: `is ${kindOf(stats)}, not a regular file; point it at a file` };
    if (stats.size > maxBytes) return tooLarge(stats.size, maxBytes);
    // Read at most one byte past the limit: a file that grows while it is read is still caught.
    const buffer = Buffer.alloc(Math.min(stats.size, maxBytes) + 1);
    let length = 0;
    for (;;) {
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
      if (length > maxBytes) return tooLarge(length, maxBytes);
      if (length === buffer.length) break;
    }
    return { ok: true, text: buffer.subarray(0, length).toString('utf8') };
  } catch (error) {
    return { ok: false, problem: 'unreadable', message: `cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})` };
  } finally {
    closeSync(fd);
  }
}

/** Where a path ends up once every link is followed; undefined when it does not exist. */
function realPathOf(path: string): string | undefined {
  try {
    // The system's realpath: one call, where Node's own walks the path a component at a time in
    // JavaScript, an lstat each, for every file a load reads (agent.yaml, identity, each skill).
    return realpathSync.native(path);
  } catch {
    return undefined;
  }
}

export function isInsideFolder(folder: string, path: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/**
 * Where a path an agent folder's file names resolves to, after links: inside the folder, or the
 * reason it may not be used. Nothing a folder names may lead outside it (`../../secret.md`, a
 * link to the home folder), since what it holds is sent to the model provider.
 */
export function resolveInsideAgent(agentDir: string, named: string): { ok: true; path: string } | { ok: false; problem: FileProblem; message: string } {
  const path = isAbsolute(named) ? named : resolve(agentDir, named);
  const real = realPathOf(path);
  if (real === undefined) return { ok: false, problem: 'missing', message: 'does not exist' };
  const root = realPathOf(agentDir) ?? resolve(agentDir);
  if (!isInsideFolder(root, real)) {
    const via = real === path ? '' : ` (it leads to ${real})`;
    return { ok: false, problem: 'outside', message: `is outside the agent folder${via}; auggy reads only files inside the folder, so move the file in` };
  }
  return { ok: true, path: real };
}

/** Reads a file an agent folder names: inside the folder after links, a regular file, at most 1 MiB. */
export function readAgentFile(agentDir: string, named: string): FileRead {
  const resolved = resolveInsideAgent(agentDir, named);
  return resolved.ok ? readBoundedFile(resolved.path) : resolved;
}
