import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadScenario } from '../../src/hosts/test/scenario/load-scenario.js';
import { compilePattern } from '../../src/hosts/test/assertions/describe.js';
import { findAssertionType } from '../../src/hosts/test/assertions/registry.js';
import type { Scope } from '../../src/hosts/test/assertions/scope.js';
import { tempDir } from '../helpers/temp-dir.js';

function load(text: string) {
  const path = join(tempDir('auggy-pk-'), 'case.scenario.yaml');
  writeFileSync(path, text);
  return loadScenario(path, 'case.scenario.yaml');
}

const scope = (text: string, toolCalls: Scope['toolCalls'] = []): Scope => ({
  kind: 'turn',
  text,
  replies: [text],
  toolCalls,
  questions: [],
  compactions: [],
  conversation: '',
});
const check = (type: string, params: unknown, on: Scope) => {
  const found = findAssertionType(type);
  if (!found) throw new Error(`no ${type}`);
  return found.check(found.params.parse(params), on, { complete: async () => ({ ok: false, error: 'none' }), signal: new AbortController().signal });
};

describe('PromptKit scenarios as written', () => {
  it("Go's inline flags become JavaScript flags, mid-pattern and as groups too", () => {
    expect(compilePattern('(?i)solar').test('SOLAR')).toBe(true);
    expect(compilePattern('(?s)a.b').test('a\nb')).toBe(true);
    expect(compilePattern('^x(?m)$').flags).toContain('m');
    expect(compilePattern('(?i:hello) world').test('HELLO world')).toBe(true);
    expect(compilePattern('(?P<n>\\d+)\\z').exec('ab 12')?.groups?.n).toBe('12');
  });

  it('an image part is resolved beside the scenario; a video part loads and is marked not run; a self-play turn loads to be played', () => {
    const loaded = load(`kind: Scenario
spec:
  turns:
    - role: user
      parts: [{ type: text, text: "what is this?" }, { type: image, media: { file_path: media/a.png } }]
      assertions: [{ type: content_matches, params: { pattern: "(?i)cat" } }]
    - role: user
      parts: [{ type: text, text: "and this?" }, { type: video, media: { file_path: a.mp4, mime_type: video/mp4 } }]
    - role: gemini-user
      persona: curious-learner
      turns: 2
      assertions: [{ type: faithfulness, params: {} }]
`);
    expect(loaded.diagnostics).toEqual([]);
    const turns = loaded.scenario?.turns ?? [];
    expect(turns[0].skip).toBeUndefined();
    expect(turns[0].images).toEqual([{ label: 'the image in part 2', path: expect.stringMatching(/auggy-pk-[^/]+\/media\/a\.png$/) }]);
    expect(turns.slice(1).map((turn) => turn.skip)).toEqual([
      expect.stringMatching(/its video part is not sent: auggy sends a model text and images/),
      undefined,
    ]);
    expect(turns[2].selfPlay).toEqual({ role: 'gemini-user', persona: 'curious-learner', turns: 2, maxTurns: 2 });
  });

  it('PromptKit aliases load: is_valid_json, valid_json, tools_not_called_with_args', () => {
    for (const type of ['is_valid_json', 'valid_json', 'tools_not_called_with_args']) expect(findAssertionType(type), type).toBeDefined();
  });

  it('an LLM-judged or unobserved type is reported skipped, never passed', async () => {
    for (const type of ['faithfulness', 'cost_budget', 'image_format']) {
      const result = await check(type, {}, scope('anything'));
      expect(result, type).toMatchObject({ passed: false, skipped: true });
    }
  });

  it('json_path reads JMESPath with expected, contains and counts, as PromptKit does', async () => {
    const reply = '```json\n{"order": {"id": 7, "items": ["a", "b"]}}\n```';
    expect((await check('json_path', { expression: 'order.id', expected: 7, extract_json: true }, scope(reply))).passed).toBe(true);
    expect((await check('json_path', { expression: 'order.items', contains: ['b'], min_results: 2, extract_json: true }, scope(reply))).passed).toBe(true);
    expect((await check('json_path', { expression: 'order.id', expected: 8, extract_json: true }, scope(reply))).passed).toBe(false);
    expect((await check('is_valid_json', {}, scope(reply))).passed).toBe(false);
  });

  it('tool checks follow PromptKit: sequence with gaps, args as text, no repeats, excluded args', async () => {
    const calls = [
      { name: 'lookup', input: { id: 3 }, result: 'found order 3', isError: false },
      { name: 'lookup', input: { id: '3' }, result: 'found order 3', isError: false },
      { name: 'refund', input: { id: 3, amount: 'all' }, result: 'ok', isError: false },
    ];
    const on = scope('done', calls);
    expect((await check('tool_call_sequence', { sequence: ['lookup', 'refund'] }, on)).passed).toBe(true);
    expect((await check('tool_calls_with_args', { tool_name: 'lookup', expected_args: { id: '3' }, result_includes: ['order'] }, on)).passed).toBe(true);
    expect((await check('tool_no_repeat', {}, on)).passed).toBe(false);
    expect((await check('tools_not_called_with_args', { tool_name: 'refund', excluded_args: { amount: 'all' } }, on)).passed).toBe(false);
    expect((await check('tool_result_matches', { tool: 'lookup', pattern: '(?i)ORDER \\d', occurrence: 2 }, on)).passed).toBe(true);
  });
});
