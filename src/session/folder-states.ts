import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { NamedState } from './store.js';

async function names(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch {
    return [];
  }
}

/**
 * The state files named `prefix…` in every session folder under `root`. A file that is not JSON
 * (cut off, or being replaced this instant) is left out: the store's own reads set it aside.
 */
export async function folderStatesNamed(root: string, prefix: string): Promise<NamedState[]> {
  const found: NamedState[] = [];
  for (const sessionId of (await names(root)).sort()) {
    for (const name of (await names(join(root, sessionId))).sort()) {
      if (!name.startsWith(prefix) || !name.endsWith('.json')) continue;
      try {
        found.push({ sessionId, name, value: JSON.parse(await readFile(join(root, sessionId, name), 'utf8')) as unknown });
      } catch {
        // Not readable as JSON: not a state to find.
      }
    }
  }
  return found;
}
