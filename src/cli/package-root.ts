import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A path inside the auggy package (package.json, templates/). Found by walking up from this
 * module to the folder with package.json, so it holds from src/ (tests), dist/ (compiled) and
 * dist/bundle/ (what bin/auggy.js runs) alike.
 */
export function packagePath(...parts: string[]): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
  return join(dir, ...parts);
}
