import { basename, isAbsolute, relative } from 'node:path';
import { shellQuote } from '../hosts/retype-command.js';

/**
 * The words that started auggy, for commands printed to be typed again: `auggy` when it came
 * from the PATH, `npx auggy` under npx, and `node bin/auggy.js` when run from a clone.
 */
export function invokedAs(script = process.argv[1] ?? '', env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): string[] {
  if (env.npm_command === 'exec') return ['npx', 'auggy'];
  if (script === '' || basename(script) === 'auggy') return ['auggy'];
  const path = relative(cwd, script);
  const shown = path.startsWith('..') || isAbsolute(path) ? script : path;
  return ['node', shellQuote(shown)];
}
