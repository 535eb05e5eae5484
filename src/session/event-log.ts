import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { NO_FOLLOW } from './real-paths.js';

export const BROKEN_SUFFIX = '.broken';

/** The log opened for appends (and for the reads its repair needs), never through a link. */
export function openLog(path: string): Promise<FileHandle> {
  return open(path, constants.O_RDWR | constants.O_APPEND | NO_FOLLOW);
}

/**
 * Appends whole lines or nothing: a write cut short (a full disk) is truncated back, so the log
 * never ends in half a line that the next append would be glued onto. The log's size is asked
 * only then: what to cut is the part that went out, the last bytes of the file.
 */
export async function appendWhole(log: FileHandle, data: Buffer): Promise<void> {
  let written = 0;
  try {
    while (written < data.length) written += (await log.write(data, written, data.length - written)).bytesWritten;
  } catch (error) {
    if (written > 0) {
      try {
        await log.truncate((await log.stat()).size - written);
      } catch {
        // Nothing more can be done; the reader skips a torn line and the next writer sets it aside.
      }
    }
    throw error;
  }
}

const CHUNK = 64 * 1024;

/** The offset just after the last newline before `size`, or 0 when there is none. */
async function endOfLastWholeLine(log: FileHandle, size: number): Promise<number> {
  const chunk = Buffer.alloc(CHUNK);
  for (let end = size; end > 0; end -= CHUNK) {
    const start = Math.max(0, end - CHUNK);
    await log.read(chunk, 0, end - start, start);
    const at = chunk.subarray(0, end - start).lastIndexOf(0x0a);
    if (at >= 0) return start + at + 1;
  }
  return 0;
}

/** Whether the log of `size` bytes ends in a newline (an empty log does). */
export async function endsWhole(log: FileHandle, size: number): Promise<boolean> {
  if (size === 0) return true;
  const last = Buffer.alloc(1);
  await log.read(last, 0, 1, size - 1);
  return last[0] === 0x0a;
}

/**
 * For a log of `size` bytes that does not end in a newline (a crash or a full disk cut its last
 * line): moves the partial line into `<log>.broken` and cuts it off, so the next append starts a
 * line of its own. Returns how many bytes were moved.
 */
export async function setAsideCutLine(log: FileHandle, path: string, size: number): Promise<number> {
  const cut = await endOfLastWholeLine(log, size);
  const partial = Buffer.alloc(size - cut);
  await log.read(partial, 0, partial.length, cut);
  const broken = await open(`${path}${BROKEN_SUFFIX}`, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | NO_FOLLOW, 0o600);
  try {
    await appendWhole(broken, Buffer.concat([partial, Buffer.from('\n')]));
  } finally {
    await broken.close();
  }
  await log.truncate(cut);
  return partial.length;
}
