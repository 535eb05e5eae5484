import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** The nearest folder at or above `cwd` that holds agent.yaml, as git finds its repository. */
export function agentFolderAbove(cwd: string): string | undefined {
  for (let folder = resolve(cwd); ; folder = dirname(folder)) {
    if (existsSync(join(folder, 'agent.yaml'))) return folder;
    if (dirname(folder) === folder) return undefined;
  }
}

/**
 * The folder a command uses when it was given none (or `.`): the current one when it is an agent
 * folder, else the nearest one above it, said on stderr so the person knows which agent answers
 * (stdout stays the command's own). Any other folder named on the command line is used as given.
 */
export function defaultAgentFolder(dir: string, cwd = process.cwd(), say: (line: string) => void = (line) => process.stderr.write(`${line}\n`)): string {
  if (dir !== '.' || existsSync(join(cwd, 'agent.yaml'))) return dir;
  const above = agentFolderAbove(cwd);
  if (above === undefined) return dir;
  say(`auggy: using the agent in ${relative(cwd, above)} (${above}), the nearest folder above this one with an agent.yaml`);
  return above;
}
