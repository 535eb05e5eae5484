import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { UsageError } from '../../exit-codes.js';
import { requireExistingFolder } from '../../open-conversation.js';

const SCENARIO_FILE = /\.scenario\.ya?ml$/;

export interface ScenarioFiles {
  /** The agent folder. */
  agentDir: string;
  /** Absolute paths, in the order they run. */
  paths: string[];
}

function isDirectory(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory();
}

function scenariosIn(folder: string): string[] {
  return readdirSync(folder)
    .filter((name) => SCENARIO_FILE.test(name))
    .sort()
    .map((name) => join(folder, name));
}

/** The nearest folder at or above `start` that holds agent.yaml, or undefined. */
function agentFolderAbove(start: string): string | undefined {
  for (let folder = start; ; folder = dirname(folder)) {
    if (existsSync(join(folder, 'agent.yaml'))) return folder;
    if (dirname(folder) === folder) return undefined;
  }
}

/**
 * `auggy test [dir] [files...]`: the named files (or folders of them), else `<dir>/tests/`.
 * A file given in place of dir runs against the agent folder that holds it.
 */
export function findScenarioFiles(dir: string, files: readonly string[], cwd = process.cwd()): ScenarioFiles {
  let agentDir = resolve(cwd, dir);
  let named = [...files];
  if (existsSync(agentDir) && !isDirectory(agentDir)) {
    named = [dir, ...named];
    agentDir = agentFolderAbove(dirname(agentDir)) ?? cwd;
  }
  requireExistingFolder(agentDir);
  if (!existsSync(join(agentDir, 'agent.yaml'))) {
    throw new UsageError(`${agentDir} has no agent.yaml; pass an agent folder, or create one with: auggy create <name>`);
  }
  if (named.length === 0) {
    const tests = join(agentDir, 'tests');
    const paths = isDirectory(tests) ? scenariosIn(tests) : [];
    if (paths.length === 0) {
      throw new UsageError(
        `no scenarios: ${relative(cwd, tests) || tests} has no *.scenario.yaml files; write one (auggy create adds tests/example.scenario.yaml) or name the files`,
      );
    }
    return { agentDir, paths };
  }
  const paths = named.flatMap((name) => {
    // A name is read from the working folder first, then from the agent folder.
    const path = [resolve(cwd, name), resolve(agentDir, name)].find((candidate) => existsSync(candidate));
    if (!path) throw new UsageError(`${name} does not exist (looked in ${cwd} and ${agentDir})`);
    if (!isDirectory(path)) return [path];
    const inside = scenariosIn(path);
    if (inside.length === 0) throw new UsageError(`${name} is a folder with no *.scenario.yaml files`);
    return inside;
  });
  return { agentDir, paths: [...new Set(paths)] };
}

/** How reports name a file: relative to the working folder when it is inside it, else in full. */
export function shownPath(path: string, cwd = process.cwd()): string {
  const near = relative(cwd, path);
  return near === '' || near.startsWith('..') || isAbsolute(near) ? path : near;
}
