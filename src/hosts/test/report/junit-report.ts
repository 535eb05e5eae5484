import { basename } from 'node:path';
import type { ScenarioReport, SuiteReport } from '../run/run-suite.js';
import { failuresOf, passRateText, type Failure } from './failures.js';
import { openTag, xmlEscape } from './xml.js';

const time = (ms: number) => (ms / 1000).toFixed(3);

function failureElement(failure: Failure): string {
  const runs = failure.runs > 1 ? ` (failed in ${failure.failedRuns} of ${failure.runs} runs)` : '';
  const summary = `${failure.where}: ${failure.type}: expected ${failure.expected}; actual ${failure.actual}${runs}`;
  const body = [
    `${failure.where} · ${failure.type} at ${failure.location}${runs}`,
    ...(failure.message ? [failure.message] : []),
    `expected: ${failure.expected}`,
    `actual:   ${failure.actual}`,
  ].join('\n');
  return `      ${openTag('failure', { message: summary, type: failure.type })}${xmlEscape(body)}</failure>`;
}

function testcase(agent: string, report: ScenarioReport): string {
  const { scenario } = report;
  const classname = `${agent}.${basename(scenario.file).replace(/(\.scenario)?\.ya?ml$/, '')}`;
  const attributes = { name: scenario.name, classname, file: scenario.file, line: scenario.line, time: time(report.durationMs) };
  // A scenario that met its pass rate passes: its flaky runs are told in system-out, not as failures.
  const failures = report.passed ? [] : failuresOf(report).map(failureElement);
  const rate = passRateText(report);
  const thresholds = report.thresholds.map(
    (t) => `${t.type} at line ${t.line ?? '?'}: passed in ${Math.round(t.passRate * 100)}% of runs, needs ${Math.round(t.threshold * 100)}%`,
  );
  const unmetRate =
    !report.passed && failures.length === 0
      ? [
          `      ${openTag('failure', { message: rate || 'a pass_threshold was not met', type: 'pass_rate' })}${xmlEscape([rate, ...thresholds].filter(Boolean).join('\n'))}</failure>`,
        ]
      : [];
  const out = [rate, ...thresholds].filter(Boolean);
  const children = [...failures, ...unmetRate, ...(out.length > 0 ? [`      <system-out>${xmlEscape(out.join('\n'))}</system-out>`] : [])];
  if (children.length === 0) return `    ${openTag('testcase', attributes, true)}`;
  return [`    ${openTag('testcase', attributes)}`, ...children, '    </testcase>'].join('\n');
}

/** JUnit XML as CI systems read it: one testcase per scenario, one failure per failed assertion. */
export function junitReport(suite: SuiteReport): string {
  const tests = suite.scenarios.length;
  const failures = suite.scenarios.filter((report) => !report.passed).length;
  const counts = { tests, failures, errors: 0, skipped: 0, time: time(suite.durationMs) };
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    openTag('testsuites', { name: 'auggy test', ...counts }),
    `  ${openTag('testsuite', { name: suite.agent, ...counts, timestamp: suite.startedAt.toISOString() })}`,
    ...suite.scenarios.map((report) => testcase(suite.agent, report)),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
