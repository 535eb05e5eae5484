import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../src/agent/types.js';
import { loadScenario } from '../../src/hosts/test/scenario/load-scenario.js';
import { tempDir } from '../helpers/temp-dir.js';

function load(text: string) {
  const path = join(tempDir('auggy-scenario-'), 'case.scenario.yaml');
  writeFileSync(path, text);
  const loaded = loadScenario(path, 'tests/case.scenario.yaml');
  return { ...loaded, errors: loaded.diagnostics.map(formatDiagnostic) };
}

const HEAD = 'kind: Scenario\nspec:\n  turns:\n';

describe('scenario files are checked before anything runs, each problem at its file:line', () => {
  it('reads a PromptKit file as it is: metadata.name, trials, turns with params that carry their own message', () => {
    const loaded = load(`apiVersion: promptkit.altairalabs.ai/v1alpha1
kind: Scenario
metadata:
  name: echo-test
spec:
  id: "echo-test"
  task_type: echo-assistant
  description: >
    Folded description.
  trials: 3
  tool_policy: { tool_choice: required, max_tool_calls_per_turn: 3, max_total_tool_calls: 5 }
  turns:
    - role: user
      content: "Please echo"
      assertions:
        - type: tools_called
          params: { tools: ["echo"], message: "Should echo" }
        - type: contains
          params: { patterns: ["x"] }
`);
    expect(loaded.errors).toEqual([]);
    expect(loaded.scenario).toMatchObject({ name: 'echo-test', description: 'Folded description.', trials: 3, file: 'tests/case.scenario.yaml' });
    expect(loaded.scenario?.turns[0]).toMatchObject({ index: 1, line: 13, content: 'Please echo', person: { kind: 'away' } });
    expect(loaded.scenario?.turns[0].assertions.map((a) => [a.type, a.line, a.message])).toEqual([
      ['tools_called', 16, 'Should echo'],
      ['contains', 18, undefined],
    ]);
  });

  it('names an unknown assertion type with its line, and suggests the near one', () => {
    const loaded = load(
      `${HEAD}    - content: hi\n      assertions:\n        - type: content_include\n          params: { patterns: [x] }\n        - type: sparkle\n`,
    );
    expect(loaded.scenario).toBeUndefined();
    expect(loaded.errors).toEqual([
      'tests/case.scenario.yaml:6:11 error spec.turns[0].assertions[0].type: "content_include" is not an assertion type auggy runs; did you mean content_includes?',
      expect.stringMatching(
        /^tests\/case\.scenario\.yaml:8:11 error spec\.turns\[0\]\.assertions\[1\]\.type: "sparkle" is not an assertion type auggy runs; use one of content_includes, .*turn_status, asks, ask_outcome, board_line/,
      ),
    ]);
  });

  it('checks params when the file loads: a missing or wrong param, a bad pattern, a status that does not exist', () => {
    const loaded = load(`${HEAD}    - content: hi
      assertions:
        - type: tools_called
        - type: regex
          params: { pattern: "(" }
        - type: turn_status
          params: { status: done }
        - type: state_is
          params: { state: 3 }
        - type: llm_judge
          params: { criteria: "ok", min_score: 0.7 }
`);
    expect(loaded.errors).toEqual([
      'tests/case.scenario.yaml:6:11 error spec.turns[0].assertions[0].params.tools: needs tools: the tool names, like tools: [request_input]',
      'tests/case.scenario.yaml:8:21 error spec.turns[0].assertions[1].params.pattern: is not a valid regular expression',
      'tests/case.scenario.yaml:10:21 error spec.turns[0].assertions[2].params.status: "done" is not one of completed, input-required, failed, canceled, budget-exhausted',
      'tests/case.scenario.yaml:12:21 error spec.turns[0].assertions[3].params.state: must be text, not a number (3)',
      expect.stringMatching(
        /^tests\/case\.scenario\.yaml:14:11 error spec\.turns\[0\]\.assertions\[4\]\.params: a threshold \(min_score, max_score\) goes on a wrapper: type: assertion/,
      ),
    ]);
  });

  it('refuses turns auggy cannot play and keys it does not know, at their lines', () => {
    const loaded = load(`${HEAD}    - role: assistant
      content: hello
    - content: x
      person: { answer: { a: 1 } }
    - person: away
    - content: y
      assertions:
        - { type: asks, parms: { pattern: x } }
`);
    expect(loaded.errors).toEqual([
      `tests/case.scenario.yaml:4:7 error spec.turns[0].role: "assistant" turns are not run by auggy, which plays only the person's side; use role: user`,
      'tests/case.scenario.yaml:7:7 error spec.turns[1].person: unknown key "answer"; did you mean answers?',
      "tests/case.scenario.yaml:8:7 error spec.turns[2]: needs content (the person's message), event or board",
      'tests/case.scenario.yaml:11:11 error spec.turns[3].assertions[0]: unknown key "parms"; did you mean params?',
    ]);
  });

  it('says what a file that is not a scenario is: YAML syntax, another kind, a workflow scenario, no turns', () => {
    expect(load('kind: Scenario\nspec: [\n').errors[0]).toMatch(/^tests\/case\.scenario\.yaml:3:1 error .*fix the YAML syntax there$/);
    expect(load('kind: Arena\nspec: {}\n').errors).toEqual(['tests/case.scenario.yaml:1 error kind is "Arena"; a scenario file says kind: Scenario']);
    expect(load('- a\n').errors).toEqual([
      'tests/case.scenario.yaml:1 error is not a scenario: write a mapping with kind: Scenario and spec.turns (a PromptKit Scenario file)',
    ]);
    expect(load('kind: Scenario\nspec:\n  pack: x.pack.json\n  steps: []\n').errors[0]).toMatch(
      /^tests\/case\.scenario\.yaml:4 error spec\.steps \(a PromptKit workflow scenario\) is not run by auggy/,
    );
    expect(load('kind: Scenario\nspec:\n  turns: []\n').errors).toEqual(['tests/case.scenario.yaml:3:3 error spec.turns: needs at least 1 item(s)']);
  });

  it("reads auggy's own turn keys: the scripted person, an event, board lines, and PromptKit's consent as approval", () => {
    const loaded = load(`${HEAD}    - content: plan it
      person: { answers: { env: production, replicas: 3, regions: [eu, us], confirm: true }, approve: [mcp_ops_*] }
    - event: AccountVerified
    - board: { queue: "next: docs" }
      content: hello
      consent_overrides: { deploy: grant, wipe: deny }
    - parts: [{ type: text, text: "from parts" }]
`);
    expect(loaded.errors).toEqual([]);
    expect(loaded.scenario?.turns.map((turn) => ({ content: turn.content, event: turn.event, board: turn.board, person: turn.person }))).toEqual([
      {
        content: 'plan it',
        event: undefined,
        board: [],
        person: { kind: 'scripted', answers: { env: 'production', replicas: 3, regions: ['eu', 'us'], confirm: true }, approve: ['mcp_ops_*'] },
      },
      { content: undefined, event: 'AccountVerified', board: [], person: { kind: 'away' } },
      { content: 'hello', event: undefined, board: [{ line: 'queue', text: 'next: docs' }], person: { kind: 'scripted', answers: {}, approve: ['deploy'] } },
      { content: 'from parts', event: undefined, board: [], person: { kind: 'away' } },
    ]);
  });
});
