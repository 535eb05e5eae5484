import { UsageError } from '../exit-codes.js';

/** Reads stdin, but stops once it holds more than `maxBytes`: a message that long is refused anyway. */
async function readStdin(maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    chunks.push(bytes);
    size += bytes.length;
    if (size > maxBytes) break;
  }
  return Buffer.concat(chunks).toString('utf8');
}

function withinLimit(text: string, maxChars: number): string {
  if (text.length > maxChars) {
    throw new UsageError(`the message is ${text.length} characters, over the ${maxChars} that --max-message-chars allows; shorten it or raise the limit`);
  }
  return text;
}

/**
 * The turn's message: the argument, or standard input when it is omitted or `-`. One over
 * `maxChars` is refused before anything is sent, as serve refuses it.
 */
export async function readMessage(argument: string | undefined, maxChars: number): Promise<string> {
  if (argument !== undefined && argument !== '-') {
    if (argument.trim() === '') throw new UsageError('the message is empty; pass some text or pipe it on stdin');
    return withinLimit(argument, maxChars);
  }
  if (process.stdin.isTTY) {
    throw new UsageError('no message: pass it as an argument (auggy run --print "hello") or pipe it on stdin');
  }
  // UTF-8 takes at most 3 bytes per UTF-16 unit, so past this many bytes the message is over the limit.
  const text = (await readStdin(maxChars * 3 + 1024)).trim();
  if (text === '') throw new UsageError('stdin was empty; pipe a message or pass it as an argument');
  return withinLimit(text, maxChars);
}
