import type { Scenario, ScenarioTurn } from '../scenario/types.js';
import type { AssertionOutcome } from './evaluate.js';
import { runScenarioOnce, type RunOptions, type RunReport } from './run-scenario.js';

/** An assertion with its own `pass_threshold`, judged on its pass rate across the runs. */
export interface ThresholdReport {
  type: string;
  line?: number;
  passRate: number;
  threshold: number;
  met: boolean;
}

export interface ScenarioReport {
  scenario: Scenario;
  runs: RunReport[];
  /** Runs passed / runs made. */
  passRate: number;
  minPassRate: number;
  thresholds: ThresholdReport[];
  passed: boolean;
  durationMs: number;
}

export interface SuiteReport {
  agent: string;
  startedAt: Date;
  durationMs: number;
  canceled: boolean;
  scenarios: ScenarioReport[];
}

export interface SuiteListener {
  scenarioStarted?(scenario: Scenario, position: { index: number; total: number; run: number; runs: number }): void;
  turnStarted?(turn: ScenarioTurn): void;
  scenarioFinished?(report: ScenarioReport): void;
}

export interface SuiteOptions extends Omit<RunOptions, 'onTurn'> {
  /** Runs per scenario; a scenario's own `trials` when undefined, else 1. */
  repeat?: number;
  minPassRate: number;
  listener?: SuiteListener;
}

function thresholdsOf(runs: readonly RunReport[]): ThresholdReport[] {
  const byKey = new Map<string, AssertionOutcome[]>();
  for (const run of runs) {
    const all = [
      ...run.turns.flatMap((turn) => turn.assertions.map((outcome, index) => [`${turn.index}.${turn.round ?? 0}:${index}`, outcome] as const)),
      ...run.conversation.map((outcome, index) => [`c:${index}`, outcome] as const),
    ];
    for (const [key, outcome] of all) if (outcome.passThreshold !== undefined) byKey.set(key, [...(byKey.get(key) ?? []), outcome]);
  }
  return [...byKey.values()].map((outcomes) => {
    const first = outcomes[0];
    const passRate = outcomes.filter((outcome) => outcome.status !== 'failed').length / runs.length;
    const threshold = first.passThreshold ?? 1;
    return { type: first.type, line: first.line, passRate, threshold, met: passRate >= threshold };
  });
}

/** Runs every scenario (each `repeat` times, one after another) and reports pass rates; stops early when the signal aborts. */
export async function runSuite(agent: string, scenarios: readonly Scenario[], options: SuiteOptions): Promise<SuiteReport> {
  const startedAt = new Date();
  const reports: ScenarioReport[] = [];
  for (const [index, scenario] of scenarios.entries()) {
    if (options.signal.aborted) break;
    const runs = options.repeat ?? scenario.trials ?? 1;
    const started = Date.now();
    const made: RunReport[] = [];
    for (let run = 1; run <= runs && !options.signal.aborted; run++) {
      options.listener?.scenarioStarted?.(scenario, { index: index + 1, total: scenarios.length, run, runs });
      const report = await runScenarioOnce(scenario, { ...options, onTurn: (turn) => options.listener?.turnStarted?.(turn) });
      if (report.canceled) break;
      made.push(report);
    }
    if (made.length < runs) break;
    const passRate = made.filter((run) => run.passed).length / runs;
    const thresholds = thresholdsOf(made);
    const report: ScenarioReport = {
      scenario,
      runs: made,
      passRate,
      minPassRate: options.minPassRate,
      thresholds,
      passed: passRate >= options.minPassRate && thresholds.every((threshold) => threshold.met),
      durationMs: Date.now() - started,
    };
    reports.push(report);
    options.listener?.scenarioFinished?.(report);
  }
  return { agent, startedAt, durationMs: Date.now() - startedAt.getTime(), canceled: options.signal.aborted, scenarios: reports };
}

/** Scenarios whose name contains `filter`, ignoring case. */
export function filterScenarios(scenarios: readonly Scenario[], filter: string | undefined): Scenario[] {
  if (filter === undefined) return [...scenarios];
  const wanted = filter.toLowerCase();
  return scenarios.filter((scenario) => scenario.name.toLowerCase().includes(wanted));
}
