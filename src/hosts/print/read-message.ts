import { UsageError } from '../exit-codes.js';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** The turn's message: the argument, or standard input when it is omitted or `-`. */
export async function readMessage(argument: string | undefined): Promise<string> {
  if (argument !== undefined && argument !== '-') {
    if (argument.trim() === '') throw new UsageError('the message is empty; pass some text or pipe it on stdin');
    return argument;
  }
  if (process.stdin.isTTY) {
    throw new UsageError('no message: pass it as an argument (auggy run --print "hello") or pipe it on stdin');
  }
  const text = (await readStdin()).trim();
  if (text === '') throw new UsageError('stdin was empty; pipe a message or pass it as an argument');
  return text;
}
