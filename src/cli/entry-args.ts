import { agentFolderAbove } from '../agent/agent-folder-above.js';

/** Root options that are auggy's own; every other leading option belongs to `run`. */
const ROOT_OPTIONS = new Set(['-h', '--help', '-v', '--version']);

export type Entry =
  /** Bare `auggy`: the chat when that makes sense here, the help otherwise. */
  { kind: 'bare' } | { kind: 'argv'; argv: string[] };

/**
 * How the first word routes. `auggy -p "msg"` is `auggy run -p "msg"`, as `claude -p` is; bare
 * `auggy` is decided by where it runs (see `bareAction`).
 */
export function routeArgs(argv: string[]): Entry {
  const [node, script, ...rest] = argv;
  if (rest.length === 0) return { kind: 'bare' };
  const first = rest[0];
  if (first.startsWith('-') && first !== '-' && !ROOT_OPTIONS.has(first)) return { kind: 'argv', argv: [node, script, 'run', ...rest] };
  return { kind: 'argv', argv };
}

/**
 * Bare `auggy`: in an agent folder (or a folder inside one) on a terminal it opens the chat there,
 * as `claude` does; elsewhere the help.
 */
export function bareAction(cwd: string, terminal: boolean): 'chat' | 'help' {
  return terminal && agentFolderAbove(cwd) !== undefined ? 'chat' : 'help';
}
