import { describe, expect, it } from 'vitest';
import { CORE_ASSERTION_TYPES } from '../../src/hosts/test/assertions/registry.js';
import { copyExample } from '../helpers/agent-fixture.js';
import { exampleWithRules, failuresByType, reportNamed, runScenarios, scenario } from './harness.js';

const DEMO_PASSES = scenario(
  'demo passes',
  `    - role: user
      content: "deploy the api"
      assertions:
        - { type: turn_status, params: { status: input-required } }
        - { type: asks, params: { pattern: "api-west or api-east" } }
        - { type: tools_called, params: { tools: [request_input, board_write] } }
        - { type: tools_not_called, params: { tools: [ask_user] } }
        - { type: tool_args, params: { tool_name: board_write, expected_args: { line: progress } } }
        - { type: no_tool_errors }
        - { type: tool_result_includes, params: { tool: board_write, patterns: ["set"] } }
        - { type: tool_call_count, params: { tool: board_write, min: 1, max: 1 } }
        - { type: board_line, params: { line: progress, pattern: "waiting", by: agent } }
        - { type: ask_outcome, params: { outcome: in_progress } }
        - { type: content_includes, params: { patterns: ["which production service"] } }
        - { type: content_includes_any, params: { patterns: ["nope", "api-east"] } }
        - { type: content_excludes, params: { patterns: ["error"] } }
        - { type: regex, params: { pattern: "api-(west|east)\\\\?$" } }
        - { type: min_length, params: { min: 10 } }
        - { type: max_length, params: { max: 500 } }
    - role: user
      content: "api-west"
      assertions:
        - { type: turn_status, params: { status: [completed, input-required] } }
        - { type: ask_outcome, params: { outcome: achieved } }
        - { type: llm_judge, params: { criteria: "Says the deploy is done." } }
        - { type: assertion, params: { eval_type: llm_judge, eval_params: { criteria: "Says it is done." }, min_score: 0.5 } }
        - { type: llm_judge_session, params: { criteria: "The deploy finished." } }`,
  `  conversation_assertions:
    - { type: tools_called, params: { tools: [set_user_ask] } }
    - { type: tool_call_count, params: { tool: request_input, max: 1 } }`,
);

const DEMO_FAILS = scenario(
  'demo fails',
  `    - role: user
      content: "broken"
      assertions:
        - { type: turn_status, params: { status: input-required } }
        - { type: asks, params: { pattern: "which service" } }
        - { type: tools_called, params: { tools: [request_input] } }
        - { type: tools_not_called, params: { tools: [board_write] } }
        - { type: tool_args, params: { tool_name: board_write, expected_args: { line: progress } } }
        - { type: no_tool_errors }
        - { type: tool_result_includes, params: { tool: board_write, patterns: ["set"] } }
        - { type: tool_call_count, params: { tool: board_write, max: 0 } }
        - { type: board_line, params: { line: queue, text: "the agent wrote this" } }
        - { type: ask_outcome, params: { outcome: achieved } }
        - { type: content_includes, params: { patterns: ["deployed"] } }
        - { type: content_includes_any, params: { patterns: ["deployed", "live"] } }
        - { type: content_excludes, params: { patterns: ["queue"] } }
        - { type: regex, params: { pattern: "^Never" } }
        - { type: min_length, params: { min: 1000 } }
        - { type: max_length, params: { max: 5 } }
        - { type: llm_judge, params: { criteria: "Says the deploy is done." } }
        - { type: llm_judge_session, params: { criteria: "Says it is done." } }
        - { type: assertion, params: { eval_type: content_includes, eval_params: { patterns: ["Tried", "deployed"] }, min_score: 0.75 } }
        - { type: state_is, params: { state: triage } }`,
);

const SUPPORT_PASSES = scenario(
  'support passes',
  `    - role: user
      content: "I need my balance, my ID is ACC-12345"
      assertions:
        - { type: state_is, params: { state: resolution } }
        - { type: transitioned_to, params: { state: triage } }
        - { type: workflow_transition_order, params: { sequence: [triage, resolution] } }
    - role: user
      content: "thanks, that's all"
      assertions:
        - { type: workflow_complete }
        - { type: workflow_transition_order, params: { sequence: [triage, closed] } }`,
);

const SUPPORT_FAILS = scenario(
  'support fails',
  `    - role: user
      content: "hello"
      assertions:
        - { type: state_is, params: { state: resolution } }
        - { type: transitioned_to, params: { state: closed } }
        - { type: workflow_transition_order, params: { sequence: [triage, resolution] } }
        - { type: workflow_complete }
        - { type: ask_outcome, params: { outcome: achieved } }
        - { type: board_line, params: { line: queue, text: "x" } }
        - { type: context_compacted }
        - { type: goal_met }
        - { type: goal_turns, params: { max: 3 } }`,
);

describe('every assertion type passes when the turn meets it', () => {
  it('demo: content, tools, turn status, questions, board, user ask and llm_judge all pass on a real run', async () => {
    const suite = await runScenarios(exampleWithRules('demo'), { pass: DEMO_PASSES });
    const report = reportNamed(suite, 'demo passes');
    expect([...failuresByType(report).values()]).toEqual([]);
    expect(report.passed).toBe(true);
    const outcomes = report.runs[0].turns.flatMap((turn) => turn.assertions).concat(report.runs[0].conversation);
    expect(outcomes.every((outcome) => outcome.status === 'passed')).toBe(true);
    expect(outcomes).toHaveLength(23);
  });

  it('support: the workflow assertions pass along verifying → triage → resolution → closed', async () => {
    const suite = await runScenarios(copyExample('support'), { pass: SUPPORT_PASSES });
    expect(failuresByType(reportNamed(suite, 'support passes'))).toEqual(new Map());
    expect(reportNamed(suite, 'support passes').passed).toBe(true);
  });
});

describe('every assertion type fails when the turn does not meet it, naming what was expected and what happened', () => {
  it('demo: each failure says expected and actual', async () => {
    const suite = await runScenarios(exampleWithRules('demo'), { fail: DEMO_FAILS });
    const report = reportNamed(suite, 'demo fails');
    expect(report.passed).toBe(false);
    const failures = failuresByType(report);
    const expectations: [string, string, string][] = [
      ['turn_status', 'the turn to end input-required', 'completed'],
      ['asks', 'a question matching /which service/', 'no question was asked'],
      ['tools_called', '"request_input" called successfully at least 1 time(s)', 'request_input ×0; called: board_write (error)'],
      ['tools_not_called', '"board_write" never called', '"board_write" called'],
      ['tool_args', 'board_write called with {"line":"progress"}', 'board_write called with {"line":"queue","text":"the agent wrote this"}'],
      ['no_tool_errors', 'no tool errors', 'board_write: "board_write refused:'],
      ['tool_result_includes', '1 or more result(s) of board_write including "set"', '0 matched; results: "board_write refused:'],
      ['tool_call_count', 'at most 0 call(s) of board_write', '1; called: board_write (error)'],
      ['board_line', 'board line "queue" to read "the agent wrote this"', '"", never written'],
      ['ask_outcome', 'the user ask judged achieved', 'in_progress: "The demo agent only said what it can do'],
      ['content_includes', 'the reply to include "deployed"', '"deployed" missing from "Tried to write the queue."'],
      ['content_includes_any', 'the reply to include one of "deployed" or "live"', 'none in "Tried to write the queue."'],
      ['content_excludes', 'the reply not to include "queue"', '"queue" found in "Tried to write the queue."'],
      ['regex', 'the reply to match /^Never/', 'no match in "Tried to write the queue."'],
      ['min_length', 'a reply of at least 1000 characters', '25 characters'],
      ['max_length', 'a reply of at most 5 characters', '25 characters'],
      ['llm_judge', 'a judge to find the reply meets "Says the deploy is done."', 'failed (score 0.1): "Nothing says the service is live."'],
      ['llm_judge_session', 'a judge to find the reply meets "Says it is done."', 'failed (score 0.1)'],
      ['assertion(content_includes)', 'the reply to include "Tried" and "deployed", with a score ≥ 0.75', 'score 0.5; "deployed" missing'],
      ['state_is', 'the workflow in state "triage"', 'the agent has no workflow augment'],
    ];
    for (const [type, expected, actual] of expectations) {
      const failure = failures.get(type);
      expect(failure, type).toBeDefined();
      expect(failure?.expected, type).toContain(expected);
      expect(failure?.actual, type).toContain(actual);
      expect(failure?.location, type).toMatch(/^fail\.scenario\.yaml:\d+:\d+$/);
    }
    expect(failures.size).toBe(expectations.length);
  });

  it('support: the workflow assertions fail with the path taken, and missing augments are named', async () => {
    const suite = await runScenarios(copyExample('support'), { fail: SUPPORT_FAILS });
    const failures = failuresByType(reportNamed(suite, 'support fails'));
    expect(failures.get('state_is')).toMatchObject({ expected: 'the workflow in state "resolution"', actual: 'in state "verifying"' });
    expect(failures.get('transitioned_to')).toMatchObject({ expected: 'a transition to "closed"', actual: 'no transitions (still in verifying)' });
    expect(failures.get('workflow_transition_order')).toMatchObject({ expected: 'transitions into "triage" then "resolution", in that order' });
    expect(failures.get('workflow_complete')).toMatchObject({
      expected: 'the workflow complete (in a terminal state)',
      actual: 'not complete: in "verifying"',
    });
    expect(failures.get('ask_outcome')?.actual).toContain('the agent has no userAsk augment');
    expect(failures.get('board_line')?.actual).toContain('the agent has no board augment');
    expect(failures.get('context_compacted')).toMatchObject({ expected: 'the context compacted at least 1 time during the turn', actual: 'no compaction' });
    expect(failures.get('goal_met')).toMatchObject({ expected: 'the goal achieved', actual: expect.stringContaining('the agent has no goal augment') });
    expect(failures.get('goal_turns')?.actual).toContain('the agent has no goal augment');
  });

  it('covers every registered type in these two tables', () => {
    const written = `${DEMO_PASSES}${DEMO_FAILS}${SUPPORT_PASSES}${SUPPORT_FAILS}`;
    for (const type of CORE_ASSERTION_TYPES) expect(written, type.name).toMatch(new RegExp(`type: ${type.name}[ ,]`));
  });
});
