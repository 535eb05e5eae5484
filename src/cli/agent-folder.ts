import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { agentFolderAbove } from '../agent/agent-folder-above.js';

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
