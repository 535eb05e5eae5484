import type { ScenarioReport, SuiteReport } from '../run/run-suite.js';
import { failuresOf, passRateText, seconds } from './failures.js';

export interface TextStyle {
  colour: boolean;
}

const paint = (code: number, text: string, style: TextStyle) => (style.colour ? `\u001b[${code}m${text}\u001b[0m` : text);

/** The lines for one finished scenario: PASS/FAIL, then each failure with what was expected and what happened. */
export function scenarioLines(report: ScenarioReport, style: TextStyle): string[] {
  const { scenario } = report;
  const turns = scenario.turns.length;
  const facts = [scenario.file, `${turns} turn${turns === 1 ? '' : 's'}`, passRateText(report), seconds(report.durationMs)].filter(Boolean).join(', ');
  const mark = report.passed ? paint(32, 'PASS', style) : paint(31, 'FAIL', style);
  const lines = [`${mark}  ${scenario.name}  (${facts})`];
  const notes = [...new Set(report.runs.flatMap((run) => run.turns.flatMap((turn) => turn.notes.map((note) => `turn ${turn.index}: ${note}`))))];
  // A pass with a turn not run says so: its checks were skipped, not passed.
  if (report.passed) return [...lines, ...notes.map((note) => `      note: ${note}`)];
  for (const failure of failuresOf(report)) {
    const runs = failure.runs > 1 ? ` · failed in ${failure.failedRuns} of ${failure.runs} runs` : '';
    lines.push(`      ${failure.where} · ${failure.type} · ${failure.location}${runs}`);
    if (failure.message) lines.push(`        ${failure.message}`);
    lines.push(`        expected: ${failure.expected}`, `        actual:   ${failure.actual}`);
  }
  for (const threshold of report.thresholds.filter((t) => !t.met)) {
    lines.push(
      `      ${threshold.type} at line ${threshold.line ?? '?'} passed in ${Math.round(threshold.passRate * 100)}% of runs; its pass_threshold is ${Math.round(threshold.threshold * 100)}%`,
    );
  }
  for (const note of notes) lines.push(`      note: ${note}`);
  return lines;
}

/** The closing line: `scenarios: 3 passed, 1 failed (4 total, 2.1s)`. */
export function summaryLine(suite: SuiteReport, total: number, style: TextStyle): string {
  const passed = suite.scenarios.filter((report) => report.passed).length;
  const failed = suite.scenarios.length - passed;
  const notRun = total - suite.scenarios.length;
  const counts = `${paint(passed > 0 ? 32 : 0, `${passed} passed`, style)}, ${paint(failed > 0 ? 31 : 0, `${failed} failed`, style)}`;
  const rest = notRun > 0 ? `, ${notRun} not run (canceled)` : '';
  return `scenarios: ${counts}${rest} (${total} total, ${seconds(suite.durationMs)})`;
}

/** The whole text report, as written to a file with --output. */
export function textReport(suite: SuiteReport, total: number): string {
  const style = { colour: false };
  return [...suite.scenarios.flatMap((report) => scenarioLines(report, style)), summaryLine(suite, total, style), ''].join('\n');
}
