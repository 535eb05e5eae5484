import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnv } from 'node:util';

/** The folder's `.env` as variables (Node's own parser); empty when there is none. Never printed. */
export function readDotEnv(agentDir: string): Record<string, string> {
  const path = join(agentDir, '.env');
  if (!existsSync(path)) return {};
  const parsed = parseEnv(readFileSync(path, 'utf8'));
  return Object.fromEntries(Object.entries(parsed).filter((entry): entry is [string, string] => entry[1] !== undefined));
}
