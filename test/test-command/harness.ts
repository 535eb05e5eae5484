import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { loadRunnableAgent } from '../../src/hosts/open-conversation.js';
import { createModelCache } from '../../src/model/model-cache.js';
import { loadScenario } from '../../src/hosts/test/scenario/load-scenario.js';
import { runSuite, type ScenarioReport, type SuiteReport } from '../../src/hosts/test/run/run-suite.js';
import { failuresOf, type Failure } from '../../src/hosts/test/report/failures.js';
import { copyExample } from '../helpers/agent-fixture.js';
import { tempDir } from '../helpers/temp-dir.js';

/** Rules put before a copied example's own: a judge for llm_judge, and a tool call that is refused. */
export const JUDGE_AND_BROKEN_RULES = `rules:
  - system: "judge of an AI agent's reply"
    match: "the new version is live"
    steps:
      - text: '{"passed": true, "score": 0.9, "reasoning": "The reply says the service is live."}'
  - system: "judge of an AI agent's reply"
    steps:
      - text: '{"passed": false, "score": 0.1, "reasoning": "Nothing says the service is live."}'
  - match: "^broken$"
    steps:
      - toolCalls:
          - name: board_write
            args: { line: queue, text: "the agent wrote this" }
      - text: "Tried to write the queue."
`;

/** A copy of a bundled example whose script starts with `rules` (a YAML `rules:` list). */
export function exampleWithRules(name: 'demo' | 'support', rules = JUDGE_AND_BROKEN_RULES): string {
  const dir = copyExample(name);
  const script = join(dir, 'script.yaml');
  writeFileSync(script, readFileSync(script, 'utf8').replace(/^rules:\n/m, rules));
  return dir;
}

/** Writes each scenario to a temp file, loads it (failing the test on any diagnostic) and runs them all in-process. */
export async function runScenarios(
  agentDir: string,
  scenarios: Record<string, string>,
  options: { repeat?: number; minPassRate?: number; judgeModel?: string } = {},
): Promise<SuiteReport> {
  const folder = tempDir('auggy-scenarios-');
  const loaded = Object.entries(scenarios).map(([name, text]) => {
    const path = join(folder, `${name}.scenario.yaml`);
    writeFileSync(path, text);
    const result = loadScenario(path, `${name}.scenario.yaml`);
    expect(result.diagnostics).toEqual([]);
    return result.scenario!;
  });
  const warnings: string[] = [];
  const target = await loadRunnableAgent(agentDir, {}, (warning) => warnings.push(warning));
  return runSuite(target.agent.yaml.name, loaded, {
    target,
    models: createModelCache(),
    signal: new AbortController().signal,
    warn: (warning) => warnings.push(warning),
    repeat: options.repeat,
    minPassRate: options.minPassRate ?? 1,
    ...(options.judgeModel !== undefined ? { judgeModel: options.judgeModel } : {}),
  });
}

export function reportNamed(suite: SuiteReport, name: string): ScenarioReport {
  const found = suite.scenarios.find((report) => report.scenario.name === name);
  if (!found) throw new Error(`no scenario named ${name}`);
  return found;
}

/** The failures of a scenario by assertion type (one per type in these tests). */
export function failuresByType(report: ScenarioReport): Map<string, Failure> {
  return new Map(failuresOf(report).map((failure) => [failure.type, failure]));
}

/** A scenario document around some turns, as a PromptKit file has it. */
export function scenario(name: string, turns: string, extra = ''): string {
  return `apiVersion: promptkit.altairalabs.ai/v1alpha1
kind: Scenario
metadata:
  name: ${name}
spec:
  id: ${name}
  task_type: test
  description: ${name}
  turns:
${turns}
${extra}`;
}
