import type { SuiteReport } from '../run/run-suite.js';
import { failuresOf } from './failures.js';

/** The whole run as one JSON document, for scripts: every run, turn and assertion outcome. */
export function jsonReport(suite: SuiteReport): string {
  const passed = suite.scenarios.filter((report) => report.passed).length;
  const document = {
    agent: suite.agent,
    startedAt: suite.startedAt.toISOString(),
    durationMs: suite.durationMs,
    canceled: suite.canceled,
    summary: { scenarios: suite.scenarios.length, passed, failed: suite.scenarios.length - passed },
    scenarios: suite.scenarios.map((report) => ({
      name: report.scenario.name,
      file: report.scenario.file,
      ...(report.scenario.description ? { description: report.scenario.description } : {}),
      passed: report.passed,
      passRate: report.passRate,
      minPassRate: report.minPassRate,
      durationMs: report.durationMs,
      failures: report.passed ? [] : failuresOf(report),
      thresholds: report.thresholds,
      runs: report.runs.map((run) => ({
        passed: run.passed,
        durationMs: run.durationMs,
        turns: run.turns.map((turn) => ({
          index: turn.index,
          ...(turn.round !== undefined ? { round: turn.round, persona: turn.persona } : {}),
          ...(turn.content !== undefined ? { content: turn.content } : {}),
          ...(turn.status !== undefined ? { status: turn.status } : {}),
          ...(turn.message !== undefined ? { message: turn.message } : {}),
          durationMs: turn.durationMs,
          problems: turn.problems,
          notes: turn.notes,
          assertions: turn.assertions,
        })),
        conversationAssertions: run.conversation,
      })),
    })),
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}
