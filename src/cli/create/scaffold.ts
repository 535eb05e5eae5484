import { existsSync, mkdirSync, renameSync, rmSync, rmdirSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import type { ScaffoldFile } from './render.js';

export interface ScaffoldTarget {
  parent: string;
  name: string;
  files: readonly ScaffoldFile[];
  /** The file writer; tests pass one that fails part-way to prove nothing half-written stays. */
  writeFile?: (path: string, content: string) => void;
}

/**
 * Writes the folder next to its target under a temporary name, then renames it into place, so
 * the target is either absent or complete. Returns the target path.
 */
export function writeScaffold({ parent, name, files, writeFile = writeFileSync }: ScaffoldTarget): string {
  const target = join(parent, name);
  // A plain mkdir (not mkdtemp, whose 0700 would survive the rename) keeps the usual permissions.
  const staging = join(parent, `.${name}.auggy-create-${randomUUID().slice(0, 8)}`);
  mkdirSync(staging);
  try {
    for (const file of files) {
      const path = join(staging, ...file.path.split('/'));
      mkdirSync(dirname(path), { recursive: true });
      writeFile(path, file.content);
    }
    // An empty folder at the target was allowed; rmdir refuses if something appeared in it since.
    if (existsSync(target)) rmdirSync(target);
    renameSync(staging, target);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
  return target;
}
