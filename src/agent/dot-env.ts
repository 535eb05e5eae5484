import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { readBoundedFile } from './read-agent-file.js';

/**
 * The folder's `.env` as variables (Node's own parser); empty when there is none. Never printed.
 * It may be a link to a file kept elsewhere (keys often are), but it is read only when it is a
 * small regular file; otherwise it is left out and `problem` says why.
 */
export function readDotEnv(agentDir: string): { env: Record<string, string>; problem?: string } {
  const path = join(agentDir, '.env');
  if (!existsSync(path)) return { env: {} };
  const read = readBoundedFile(path);
  if (!read.ok) return { env: {}, problem: read.message };
  const parsed = parseEnv(read.text);
  return { env: Object.fromEntries(Object.entries(parsed).filter((entry): entry is [string, string] => entry[1] !== undefined)) };
}
