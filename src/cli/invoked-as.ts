import { basename, isAbsolute, relative } from 'node:path';
import { shellQuote } from '../hosts/retype-command.js';

/**
 * The words that started auggy, for commands printed to be typed again: `auggy` when it came
 * from the PATH (npm link, a global install), and `node bin/auggy.js` when run from a clone.
 */
export function invokedAs(script = process.argv[1] ?? '', cwd = process.cwd()): string[] {
  if (script === '' || basename(script) === 'auggy') return ['auggy'];
  const path = relative(cwd, script);
  const shown = path.startsWith('..') || isAbsolute(path) ? script : path;
  return ['node', shellQuote(shown)];
}
