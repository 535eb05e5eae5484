import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh empty folder under the system temp dir. */
export function tempDir(prefix = 'auggy-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Writes files given by path relative to `dir`, creating folders as needed. */
export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
}

/** Every file and folder under `dir` with file contents, to prove a refusal touched nothing. */
export function treeSnapshot(dir: string): Record<string, string> {
  const snapshot: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name).slice(dir.length + 1);
    snapshot[path] = entry.isFile() ? readFileSync(join(dir, path), 'utf8') : '<dir>';
  }
  return snapshot;
}
