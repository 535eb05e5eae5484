import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { readBoundedFile } from './read-agent-file.js';

// node:util taken as Node's own module, not imported as an ES module: an import builds util's
// whole namespace, which evaluates each of its lazily loaded exports (its diff, parseArgs, the
// worker_threads behind some of them), fifteen more of Node's modules at every start on Node 24.
const { parseEnv } = createRequire(import.meta.url)('node:util') as typeof import('node:util');

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
