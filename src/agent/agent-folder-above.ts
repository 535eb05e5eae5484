import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/**
 * The nearest folder at or above `cwd` that holds agent.yaml, as git finds its repository: a
 * person in a subfolder, or an editor that opened the project, means that agent.
 */
export function agentFolderAbove(cwd: string): string | undefined {
  for (let folder = resolve(cwd); ; folder = dirname(folder)) {
    if (existsSync(join(folder, 'agent.yaml'))) return folder;
    if (dirname(folder) === folder) return undefined;
  }
}
