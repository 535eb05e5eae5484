import { describe, expect, it } from 'vitest';
import { copyExample } from '../helpers/agent-fixture.js';
import { failuresOf } from '../../src/hosts/test/report/failures.js';
import { exampleWithRules, reportNamed, runScenarios, scenario } from './harness.js';

describe('scenario steps beyond the message', () => {
  it('skips an assertion whose when: does not hold, and runs it when it does', async () => {
    const suite = await runScenarios(copyExample('demo'), {
      when: scenario(
        'when',
        `    - content: "hello"
      assertions:
        - { type: content_includes, params: { patterns: [never said] }, when: { tool_called: request_input } }
        - { type: content_includes, params: { patterns: [Hello] }, when: { any_tool_called: true, tool_called_pattern: "^board_" } }`,
      ),
    });
    const report = reportNamed(suite, 'when');
    expect(report.passed).toBe(true);
    expect(report.runs[0].turns[0].assertions.map((outcome) => [outcome.status, outcome.actual])).toEqual([
      ['skipped', 'request_input was not called'],
      ['passed', 'all found'],
    ]);
  });

  it('fails a step whose board line or event is refused, saying why, and a conversation assertion is named as such', async () => {
    const suite = await runScenarios(copyExample('demo'), {
      refused: scenario(
        'refused',
        `    - board: { progress: "the person may not write this" }
      content: "hello"
    - event: Escalate`,
        `  conversation_assertions:
    - { type: tools_called, params: { tools: [ask_user] } }`,
      ),
    });
    const failures = failuresOf(reportNamed(suite, 'refused'));
    expect(failures.map((failure) => [failure.where, failure.type])).toEqual([
      ['turn 1 "hello"', 'setup'],
      ['turn 2', 'setup'],
      ['conversation', 'tools_called'],
    ]);
    expect(failures[0].actual).toMatch(/^board line progress was not written: line "progress" belongs to /);
    expect(failures[1].actual).toBe('event Escalate was not applied: the agent has no workflow augment');
  });

  it('sends a step that starts with two slashes as a message with one, as the chat does', async () => {
    const rules = `rules:
  - match: "^/etc/hosts$"
    steps:
      - text: "The person sent one slash."
`;
    const suite = await runScenarios(exampleWithRules('demo', rules), {
      slashes: scenario(
        'slashes',
        `    - content: "//etc/hosts"
      assertions:
        - { type: content_includes, params: { patterns: ["one slash"] } }`,
      ),
    });
    expect(failuresOf(reportNamed(suite, 'slashes'))).toEqual([]);
  });

  it('applies an event from outside between turns, as --event does', async () => {
    const suite = await runScenarios(copyExample('support'), {
      event: scenario(
        'event',
        `    - content: "hello"
    - event: AccountVerified
      assertions:
        - { type: transitioned_to, params: { state: triage } }
        - { type: turn_status, params: { status: completed } }`,
      ),
    });
    const failures = failuresOf(reportNamed(suite, 'event'));
    expect(failures.map((failure) => [failure.type, failure.actual])).toEqual([['turn_status', 'no model turn ran in this step']]);
  });
});
