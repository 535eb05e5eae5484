import { closeSync, constants, fstatSync, ftruncateSync, openSync, readSync, writeSync } from 'node:fs';
import { NO_FOLLOW } from './real-paths.js';


export const BROKEN_SUFFIX = '.broken';

function writeAll(fd: number, data: Buffer): void {
  let offset = 0;
  while (offset < data.length) offset += writeSync(fd, data, offset, data.length - offset);
}

/** Writes all of `data`, or says how much of it had gone out when a write failed, and why. */
function writeAllCounting(fd: number, data: Buffer): { written: number; failure?: { error: unknown } } {
  let offset = 0;
  try {
    while (offset < data.length) offset += writeSync(fd, data, offset, data.length - offset);
    return { written: offset };
  } catch (error) {
    return { written: offset, failure: { error } };
  }
}

/**
 * Appends one whole line or nothing: a write cut short (a full disk) is truncated back, so the
 * log never ends in half a line that the next append would be glued onto. Returns the bytes added.
 */
export function appendWholeLine(path: string, line: string): number {
  const fd = openLogForAppend(path);
  try {
    return appendWholeLineTo(fd, line);
  } finally {
    closeSync(fd);
  }
}

/** The log opened for appends, never through a link. */
export function openLogForAppend(path: string): number {
  return openSync(path, constants.O_WRONLY | constants.O_APPEND | NO_FOLLOW);
}

/**
 * appendWholeLine on a log already open for appends. The log's size is asked only when a write
 * failed part way (it was asked before every append: some twenty fstats a serve run): what to
 * cut is the part of this line that went out, the last bytes of the file.
 */
export function appendWholeLineTo(fd: number, line: string): number {
  const data = Buffer.from(line.endsWith('\n') ? line : `${line}\n`, 'utf8');
  const { written, failure } = writeAllCounting(fd, data);
  if (failure === undefined) return data.length;
  if (written > 0) {
    try {
      ftruncateSync(fd, fstatSync(fd).size - written);
    } catch {
      // Nothing more can be done; the reader skips a torn line.
    }
  }
  throw failure.error;
}

/** The log's size in bytes. */
export function logSize(path: string): number {
  const fd = openSync(path, constants.O_RDONLY | NO_FOLLOW);
  try {
    return fstatSync(fd).size;
  } finally {
    closeSync(fd);
  }
}

const CHUNK = 64 * 1024;

/** The offset just after the last newline before `size`, or 0 when there is none. */
function endOfLastWholeLine(fd: number, size: number): number {
  const chunk = Buffer.alloc(CHUNK);
  for (let end = size; end > 0; end -= CHUNK) {
    const start = Math.max(0, end - CHUNK);
    readSync(fd, chunk, 0, end - start, start);
    const at = chunk.subarray(0, end - start).lastIndexOf(0x0a);
    if (at >= 0) return start + at + 1;
  }
  return 0;
}

/**
 * When the log does not end in a newline (a crash or a full disk cut its last line), moves the
 * partial line into `<log>.broken` and cuts it off, so the next append starts a line of its own.
 * Returns how many bytes were moved, 0 when the log was whole.
 */
export function setAsideCutLine(path: string): number {
  const fd = openSync(path, constants.O_RDWR | NO_FOLLOW);
  try {
    const size = fstatSync(fd).size;
    if (size === 0) return 0;
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    if (last[0] === 0x0a) return 0;
    const cut = endOfLastWholeLine(fd, size);
    const partial = Buffer.alloc(size - cut);
    readSync(fd, partial, 0, partial.length, cut);
    const broken = openSync(`${path}${BROKEN_SUFFIX}`, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | NO_FOLLOW, 0o600);
    try {
      writeAll(broken, Buffer.concat([partial, Buffer.from('\n')]));
    } finally {
      closeSync(broken);
    }
    ftruncateSync(fd, cut);
    return partial.length;
  } finally {
    closeSync(fd);
  }
}
