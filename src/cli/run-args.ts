import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';

export interface RunArgs {
  dir: string;
  message?: string;
  /** The one argument was read as the message, because no directory has that name. */
  messageFromSoleArgument: boolean;
}

function isDirectory(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory();
}

/**
 * The one rule for `auggy run [dir] [message]`: two arguments are the folder and the message;
 * with --print, a sole argument is the folder when it names an existing directory and otherwise
 * the message, for the agent in the current folder. Without --print there is no message.
 */
export function resolveRunArgs(first: string | undefined, second: string | undefined, print: boolean, cwd = process.cwd()): RunArgs {
  if (first === undefined) return { dir: '.', messageFromSoleArgument: false };
  if (second !== undefined || !print) return { dir: first, message: second, messageFromSoleArgument: false };
  if (first !== '-' && isDirectory(resolve(cwd, first))) return { dir: first, messageFromSoleArgument: false };
  return { dir: '.', message: first, messageFromSoleArgument: first !== '-' };
}
