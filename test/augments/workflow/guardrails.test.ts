import { describe, expect, it } from 'vitest';
import { DEFAULT_BLOCKED_MESSAGE, promptGuardrails, runGuardrails } from '../../../src/augments/workflow/guardrails.js';
import { GUARDRAIL_EVENT } from '../../../src/augments/workflow/guardrail-event.js';
import { SYSTEM_LINE_EVENT } from '../../../src/kernel/events.js';
import { lookupTool, packText, runTurn, startWorkflow, workflowFolder } from './harness.js';

/** The guardrails of one validator list, all of which must run. */
function guards(validators: unknown[]) {
  const { guardrails, problems } = promptGuardrails(validators);
  expect(problems).toEqual([]);
  return guardrails;
}

const run = (validators: unknown[], reply: string, earlier: string[] = []) => runGuardrails(guards(validators), reply, earlier);

describe("PromptKit's guardrails, run on a reply", () => {
  it('banned_words matches whole words in any case and replaces the reply with the default message', () => {
    const banned = [{ type: 'banned_words', params: { words: ['damn', 'hell'] } }];
    expect(run(banned, 'Okay, here it is: DAMN it')).toEqual({
      validator: 'banned_words',
      action: 'replaced',
      text: DEFAULT_BLOCKED_MESSAGE,
      explanation: 'it contains "damn"',
    });
    // word_boundary is banned_words' default: "hello" is not "hell".
    expect(run(banned, 'hello there, shellfish')).toBeUndefined();
  });

  it('content_excludes matches substrings, and reads the earlier replies too, as PromptKit does', () => {
    const excludes = [{ type: 'content_excludes', params: { patterns: ['hell'] } }];
    expect(run(excludes, 'hello')?.validator).toBe('content_excludes');
    expect(run(excludes, 'fine', ['well, hell'])?.action).toBe('replaced');
  });

  it("the validator's message, or its params' message, stands in for a blocked reply", () => {
    expect(run([{ type: 'banned_words', message: 'Let me rephrase.', params: { words: ['x'] } }], 'x marks it')?.text).toBe('Let me rephrase.');
    expect(run([{ type: 'banned_words', params: { words: ['x'], message: 'Rephrased.' } }], 'x marks it')?.text).toBe('Rephrased.');
  });

  it('max_length and length cut the reply to max_characters (bytes, as Go counts)', () => {
    expect(run([{ type: 'length', params: { max_characters: 10 } }], 'The history of computing')).toEqual({
      validator: 'length',
      action: 'truncated',
      text: 'The histor',
      explanation: 'it is 24 characters long, over the 10 allowed',
    });
    expect(run([{ type: 'max_length', params: { max: 4 } }], 'ééé')?.text).toBe('éé');
    expect(run([{ type: 'max_length', params: { max_characters: 100 } }], 'short')).toBeUndefined();
  });

  it("max_length's max_tokens alone (four characters a token) replaces the reply, since there is nothing to cut to", () => {
    const trigger = run([{ type: 'max_length', params: { max_characters: 1000, max_tokens: 2 } }], 'twelve chars');
    expect(trigger).toMatchObject({ action: 'replaced', text: DEFAULT_BLOCKED_MESSAGE, explanation: 'it is about 3 tokens long, over the 2 allowed' });
  });

  it('min_length replaces a reply shorter than min_characters', () => {
    expect(run([{ type: 'min_length', params: { min_characters: 10 } }], 'short')?.action).toBe('replaced');
    expect(run([{ type: 'min_length', params: { min: 3 } }], 'long enough')).toBeUndefined();
  });

  it('required_fields replaces a reply that lacks a field; contains and contains_any likewise', () => {
    expect(run([{ type: 'required_fields', params: { required_fields: ['order', 'total'] } }], 'Order 7')?.explanation).toBe('it lacks "total"');
    expect(run([{ type: 'field_presence', params: { fields: ['order'] } }], 'ORDER 7')).toBeUndefined();
    expect(run([{ type: 'contains', params: { patterns: ['thanks'] } }], 'bye')?.action).toBe('replaced');
    expect(run([{ type: 'contains_any', params: { patterns: ['thanks', 'bye'] } }], 'Bye!')).toBeUndefined();
  });

  it("regex (content_matches) reads Go's inline flags; expect_match: false holds back a reply that matches", () => {
    const forbidden = [{ type: 'regex', params: { pattern: '(?i)routing number', expect_match: false } }];
    expect(run(forbidden, 'Your ROUTING NUMBER is 021000021')).toMatchObject({ validator: 'regex', action: 'replaced' });
    expect(run(forbidden, 'Your order shipped.')).toBeUndefined();
    const required = [{ type: 'content_matches', params: { pattern: '^Order \\d+' } }];
    expect(run(required, 'Order 12 is on its way')).toBeUndefined();
    expect(run(required, 'It is on its way')?.explanation).toBe('it does not match /^Order \\d+/');
  });

  it('json_valid replaces a reply that is not JSON', () => {
    expect(run([{ type: 'is_valid_json' }], '{"ok": true}')).toBeUndefined();
    expect(run([{ type: 'json_valid' }], 'ok: true')?.validator).toBe('json_valid');
  });

  it('pii_leakage runs its pattern pre-pass alone, as PromptKit does without a judge model: emails, SSNs, card numbers', () => {
    const { guardrails, problems } = promptGuardrails([{ type: 'pii_leakage', params: { direction: 'output' } }]);
    expect(problems).toEqual([{ index: 0, message: expect.stringMatching(/pattern check only.*without a judge model/) }]);
    expect(runGuardrails(guardrails, 'Write to Jane.Doe@example.com', [])).toMatchObject({ action: 'replaced', explanation: 'it contains an email address' });
    expect(runGuardrails(guardrails, 'SSN 123-45-6789', [])?.explanation).toBe('it contains a US social security number');
    expect(runGuardrails(guardrails, 'card 4111 1111 1111 1111', [])?.explanation).toBe('it contains a card number');
    expect(runGuardrails(guardrails, 'Your account ends in 1111.', [])).toBeUndefined();
  });

  it('the first to trigger wins and the rest do not run', () => {
    const both = [
      { type: 'banned_words', params: { words: ['damn'] } },
      { type: 'length', params: { max_characters: 5 } },
    ];
    expect(run(both, 'damn, that is long')?.validator).toBe('banned_words');
    expect(run(both, 'that is long')?.validator).toBe('length');
  });

  it('a disabled validator is skipped without a word', () => {
    expect(promptGuardrails([{ type: 'banned_words', enabled: false, params: { words: ['x'] } }])).toEqual({ guardrails: [], problems: [] });
  });

  it('validators auggy cannot run are named, each with why', () => {
    const { guardrails, problems } = promptGuardrails([
      { type: 'toxicity', params: { direction: 'output' } },
      { type: 'json_schema', params: { schema: {} } },
      { type: 'regex', params: { pattern: '(unclosed' } },
      { type: 'max_length', params: { max_tokens: 10 } },
      { type: 'banned_words', params: { words: ['x'], direction: 'input' } },
      { type: 'max_sentences', params: { max_sentences: 2 } },
      { type: 'banned_words', params: { words: ['Damn'], case_sensitive: true } },
      { params: {} },
    ]);
    expect(problems.map((problem) => [problem.index, problem.message])).toEqual([
      [0, expect.stringMatching(/^validator toxicity is not run: it needs a judge model/)],
      [1, expect.stringMatching(/^validator json_schema is not run: auggy runs content_excludes, max_length/)],
      [2, expect.stringMatching(/^validator regex is not run: its pattern does not compile here/)],
      [3, expect.stringMatching(/^validator max_length is skipped, as PromptKit skips it: give it max_characters/)],
      [4, expect.stringMatching(/direction: input.*not run/)],
      [5, expect.stringMatching(/^validator max_sentences never holds a reply back/)],
      [6, expect.stringMatching(/^validator banned_words ignores case_sensitive: true/)],
      [7, expect.stringMatching(/needs a type/)],
    ]);
    // max_sentences still runs, as in PromptKit, and never triggers.
    expect(guardrails.map((guardrail) => guardrail.type)).toEqual(['max_sentences', 'banned_words']);
    expect(runGuardrails(guardrails.slice(0, 1), 'One. Two. Three. Four.', [])).toBeUndefined();
    expect(runGuardrails(guardrails.slice(1), 'damn', [])?.validator).toBe('banned_words');
  });
});

/** A pack whose one working state's prompt declares these validators. */
function guardedPack(validators: unknown[]): string {
  return packText({
    entry: 'chat',
    states: { chat: { prompt_task: 'chat', on_event: { Done: 'done' } }, done: { prompt_task: 'done', terminal: true } },
    prompts: { chat: { id: 'chat', name: 'chat', version: '1.0.0', system_template: 'Help.', tools: ['lookup'], validators } },
  });
}

const GUARDED = guardedPack([
  { type: 'banned_words', params: { words: ['damn'] } },
  { type: 'length', params: { max_characters: 20 } },
]);

describe('a state whose prompt declares validators', () => {
  it('holds back a reply with a banned word: the person sees the pack message and one line, never the word; the transcript keeps the message', async () => {
    const h = await startWorkflow(workflowFolder(GUARDED));
    const { result } = await runTurn(h, [{ text: 'Damn, no.' }]);
    expect(result.text).toBe(DEFAULT_BLOCKED_MESSAGE);
    const shown = h.events.flatMap((event) => (event.type === 'TEXT_MESSAGE_CONTENT' ? [event.delta] : []));
    expect(shown).toEqual([DEFAULT_BLOCKED_MESSAGE]);
    const lines = h.events.flatMap((event) => (event.type === 'CUSTOM' && event.name === SYSTEM_LINE_EVENT ? [(event.value as { text: string }).text] : []));
    expect(lines).toEqual([`guardrail banned_words held back the reply: it contains "damn"; the pack's message was shown instead`]);
    const records = h.events.flatMap((event) => (event.type === 'CUSTOM' && event.name === GUARDRAIL_EVENT ? [event.value] : []));
    expect(records).toEqual([{ state: 'chat', validator: 'banned_words', action: 'replaced', explanation: 'it contains "damn"' }]);
    expect(h.messages.at(-1)).toEqual({ role: 'assistant', content: [{ type: 'text', text: DEFAULT_BLOCKED_MESSAGE }] });
  });

  it('names the validators it does not run in --output json, and none when every one runs', async () => {
    const h = await startWorkflow(workflowFolder(GUARDED));
    expect(h.augment.snapshot?.()?.workflow).not.toHaveProperty('validatorsNotRun');
    const judged = guardedPack([{ type: 'toxicity' }, { type: 'banned_words', params: { words: ['x'], direction: 'input' } }]);
    const other = await startWorkflow(workflowFolder(judged));
    expect(other.augment.snapshot?.()?.workflow).toMatchObject({ validatorsNotRun: ['banned_words', 'toxicity'] });
  });

  it('cuts a long reply in a tool round too, and leaves a clean reply as it streamed', async () => {
    const h = await startWorkflow(workflowFolder(GUARDED));
    const { result } = await runTurn(
      h,
      [{ text: 'Let me look that order up for you now.', toolCalls: [{ name: 'lookup', args: { key: '7' } }] }, { text: 'Found it.' }],
      { tools: [lookupTool('lookup')] },
    );
    expect(result.text).toBe('Let me look that ord\n\nFound it.');
    const records = h.events.flatMap((event) => (event.type === 'CUSTOM' && event.name === GUARDRAIL_EVENT ? [event.value] : []));
    expect(records).toEqual([expect.objectContaining({ validator: 'length', action: 'truncated' })]);
    // The tool call still names the text message it follows.
    const start = h.events.find((event) => event.type === 'TEXT_MESSAGE_START');
    const call = h.events.find((event) => event.type === 'TOOL_CALL_START');
    expect(call?.type === 'TOOL_CALL_START' && start?.type === 'TEXT_MESSAGE_START' && call.parentMessageId === start.messageId).toBe(true);
  });
});
