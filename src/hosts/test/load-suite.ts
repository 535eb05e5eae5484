import { formatDiagnostic } from '../../agent/types.js';
import { findScenarioFiles, shownPath } from './scenario/find-scenarios.js';
import { loadScenario } from './scenario/load-scenario.js';
import type { Scenario } from './scenario/types.js';
import { loadSelfPlayConfig, type SelfPlayRole } from './scenario/self-play-config.js';

export type LoadedSuite = { ok: true; agentDir: string; scenarios: Scenario[]; selfPlayRoles: SelfPlayRole[] } | { ok: false; errors: string[]; files: number };

/** Finds and checks every scenario file before anything runs; all the problems are reported at once. */
export function loadSuite(dir: string, files: readonly string[], cwd = process.cwd()): LoadedSuite {
  const found = findScenarioFiles(dir, files, cwd);
  const scenarios: Scenario[] = [];
  const errors: string[] = [];
  let badFiles = 0;
  for (const path of found.paths) {
    const loaded = loadScenario(path, shownPath(path, cwd));
    if (loaded.scenario) scenarios.push(loaded.scenario);
    else {
      badFiles++;
      errors.push(...loaded.diagnostics.map(formatDiagnostic));
    }
  }
  // Who plays the self-play roles is checked with the scenarios, before anything runs.
  const selfPlay = loadSelfPlayConfig(found.agentDir);
  if (!selfPlay.ok) {
    badFiles++;
    errors.push(...selfPlay.diagnostics.map(formatDiagnostic));
  }
  return errors.length > 0 || !selfPlay.ok
    ? { ok: false, errors, files: badFiles }
    : { ok: true, agentDir: found.agentDir, scenarios, selfPlayRoles: selfPlay.roles };
}
