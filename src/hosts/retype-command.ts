import { isAbsolute, relative } from 'node:path';

/**
 * What auggy needs to print a command the person can type back: how auggy was started, where
 * from, and the model flags of this run (a resumed run must talk to the same model).
 */
export interface RetypeContext {
  /** The words that start auggy here: `auggy`, `npx auggy`, or `node bin/auggy.js`. */
  program: string[];
  agentDir: string;
  cwd: string;
  /** `--model x --base-url y`, as given on the command line. */
  modelFlags: string[];
}

/** One shell word: plain when safe, single-quoted otherwise. */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The agent folder as the person would type it from `cwd`: relative below it, absolute elsewhere. */
export function folderFrom(cwd: string, agentDir: string): string {
  const path = relative(cwd, agentDir);
  return path === '' ? '.' : path.startsWith('..') || isAbsolute(path) ? agentDir : path;
}

/** `auggy run <folder> <args> <model flags>`, quoted so it works pasted into a shell as printed. */
export function retypeCommand(context: RetypeContext, args: string[]): string {
  const words = ['run', folderFrom(context.cwd, context.agentDir), ...args, ...context.modelFlags];
  return [...context.program, ...words.map(shellQuote)].join(' ');
}
