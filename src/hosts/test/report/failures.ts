import type { ScenarioReport } from '../run/run-suite.js';
import type { AssertionOutcome } from '../run/evaluate.js';
import type { TurnReport } from '../run/run-scenario.js';
import { shown } from '../assertions/describe.js';

/** One thing that failed in a scenario, merged across its runs. */
export interface Failure {
  /** `turn 2 "deploy the api"`, or `conversation`. */
  where: string;
  type: string;
  /** `file:line:col` of the assertion (or the turn, for a problem). */
  location: string;
  expected: string;
  /** What the last failing run saw. */
  actual: string;
  message?: string;
  failedRuns: number;
  runs: number;
}

export function turnLabel(turn: Pick<TurnReport, 'index' | 'content' | 'round'>): string {
  const round = turn.round !== undefined ? ` message ${turn.round}` : '';
  return `turn ${turn.index}${round}${turn.content !== undefined ? ` ${shown(turn.content.length > 60 ? `${turn.content.slice(0, 59)}…` : turn.content)}` : ''}`;
}

function location(file: string, line?: number, column?: number): string {
  return [file, line, column].filter((part) => part !== undefined).join(':');
}

/** Every failed assertion and refused step of a scenario, once each, with how many runs it failed in. */
export function failuresOf(report: ScenarioReport): Failure[] {
  const file = report.scenario.file;
  const byKey = new Map<string, Failure>();
  const add = (key: string, failure: Omit<Failure, 'failedRuns' | 'runs'>) => {
    const seen = byKey.get(key);
    byKey.set(key, { ...failure, failedRuns: (seen?.failedRuns ?? 0) + 1, runs: report.runs.length });
  };
  const addAssertions = (where: string, prefix: string, outcomes: readonly AssertionOutcome[]) =>
    outcomes.forEach((outcome, index) => {
      if (outcome.status !== 'failed') return;
      add(`${prefix}:${index}`, {
        where,
        type: outcome.type,
        location: location(file, outcome.line, outcome.column),
        expected: outcome.expected,
        actual: outcome.actual,
        message: outcome.message,
      });
    });
  for (const run of report.runs) {
    for (const turn of run.turns) {
      // A self-play turn reports each of the persona's messages: each is a place of its own.
      const at = turn.round !== undefined ? `${turn.index}.${turn.round}` : String(turn.index);
      turn.problems.forEach((problem, index) =>
        add(`${at}:problem:${index}`, {
          where: turnLabel(turn),
          type: 'setup',
          location: location(file, turn.line),
          expected: 'the step to apply',
          actual: problem,
        }),
      );
      addAssertions(turnLabel(turn), at, turn.assertions);
    }
    addAssertions('conversation', 'conversation', run.conversation);
  }
  return [...byKey.values()];
}

/** `3/5 runs passed (60%, needs 80%)` for repeated scenarios; empty for one run. */
export function passRateText(report: ScenarioReport): string {
  const runs = report.runs.length;
  if (runs <= 1) return '';
  const passed = report.runs.filter((run) => run.passed).length;
  const percent = (rate: number) => `${Math.round(rate * 1000) / 10}%`;
  return `${passed}/${runs} runs passed (${percent(report.passRate)}, needs ${percent(report.minPassRate)})`;
}

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)}s`;
}
