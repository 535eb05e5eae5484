import { describe, expect, it } from 'vitest';
import type { KernelEvent } from '../../src/kernel/events.js';
import { appendItems, applyEvent, emptyTranscript, liveItems, type TranscriptState } from '../../src/hosts/tui/transcript-state.js';

const run = (state: TranscriptState, events: KernelEvent[]) => events.reduce(applyEvent, state);
const text = (messageId: string, ...deltas: string[]): KernelEvent[] => [
  { type: 'TEXT_MESSAGE_START', messageId, role: 'assistant' },
  ...deltas.map((delta): KernelEvent => ({ type: 'TEXT_MESSAGE_CONTENT', messageId, delta })),
  { type: 'TEXT_MESSAGE_END', messageId },
];
const finished = (status: 'completed' | 'input-required' | 'canceled', message?: string): KernelEvent => ({
  type: 'RUN_FINISHED',
  threadId: 's',
  runId: 'r',
  result: { status, message },
});

describe('the transcript fold', () => {
  it('keeps streaming text live, then prints the finished message when the turn ends', () => {
    let state = run(emptyTranscript(), [{ type: 'RUN_STARTED', threadId: 's', runId: 'r' }, ...text('m1', 'Hel', 'lo').slice(0, 3)]);
    expect(state.done).toEqual([]);
    expect(liveItems(state)).toMatchObject([{ kind: 'assistant', text: 'Hello' }]);
    state = run(state, [{ type: 'TEXT_MESSAGE_END', messageId: 'm1' }, finished('completed')]);
    expect(state.live).toEqual([]);
    expect(state.done).toMatchObject([{ kind: 'assistant', text: 'Hello', continued: false }]);
  });

  it('prints items in order: a tool call that settles first waits for the one before it', () => {
    const state = run(emptyTranscript(), [
      { type: 'TOOL_CALL_START', toolCallId: 'a', toolCallName: 'first' },
      { type: 'TOOL_CALL_START', toolCallId: 'b', toolCallName: 'second' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'b', delta: '{"x":1}' },
      { type: 'TOOL_CALL_RESULT', messageId: 'r2', toolCallId: 'b', content: 'two' },
    ]);
    expect(state.done).toEqual([]);
    const settled = applyEvent(state, { type: 'TOOL_CALL_RESULT', messageId: 'r1', toolCallId: 'a', content: 'oops', isError: true });
    expect(settled.done).toMatchObject([
      { kind: 'tool', name: 'first', state: 'error', result: 'oops' },
      { kind: 'tool', name: 'second', state: 'ok', args: '{"x":1}', result: 'two' },
    ]);
  });

  it('turns the message that carried the question into a question item, with no tool line saying it again', () => {
    const question = 'Which service: api-west or api-east?';
    const state = run(emptyTranscript(), [
      ...text('m1', 'Two services.'),
      { type: 'TOOL_CALL_START', toolCallId: 'q', toolCallName: 'request_input' },
      { type: 'TOOL_CALL_RESULT', messageId: 'r', toolCallId: 'q', content: question },
      ...text('m2', question),
      finished('input-required', question),
    ]);
    expect(state.done.map((item) => item.kind)).toEqual(['assistant', 'question']);
    expect(state.done[1]).toMatchObject({ kind: 'question', text: question });
  });

  it('adds a question item when no message carried it', () => {
    const state = run(emptyTranscript(), [finished('input-required', 'Which one?')]);
    expect(state.done).toMatchObject([{ kind: 'question', text: 'Which one?' }]);
  });

  it('a cancel keeps the partial text, marks tools that never ran, and says canceled', () => {
    const state = run(emptyTranscript(), [
      { type: 'TEXT_MESSAGE_START', messageId: 'm', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'Half an ans' },
      { type: 'TOOL_CALL_START', toolCallId: 't', toolCallName: 'slow' },
      finished('canceled', 'canceled while the model was answering'),
    ]);
    expect(state.done).toMatchObject([
      { kind: 'assistant', text: 'Half an ans' },
      { kind: 'tool', name: 'slow', state: 'not-run' },
      { kind: 'turn-end', status: 'canceled' },
    ]);
  });

  it('a failed run is a turn-end line with the reason', () => {
    const state = applyEvent(emptyTranscript(), { type: 'RUN_ERROR', message: 'the provider refused the credentials (HTTP 401)' });
    expect(state.done).toMatchObject([{ kind: 'turn-end', status: 'failed', message: 'the provider refused the credentials (HTTP 401)' }]);
  });

  it('shows auggy.system lines and ignores other custom events', () => {
    const state = run(emptyTranscript(), [
      { type: 'CUSTOM', name: 'auggy.system', value: { text: 'ask: achieved' } },
      { type: 'CUSTOM', name: 'someone.else', value: { text: 'not for the transcript' } },
    ]);
    expect(state.done).toMatchObject([{ kind: 'system', text: 'ask: achieved', tone: 'info' }]);
  });

  it('prints the finished markdown blocks of a long streaming message, keeping only the last block live', () => {
    let state = run(emptyTranscript({ splitStreaming: true }), text('m', 'para one\nstill one\n\n```js\nconst a').slice(0, 2));
    expect(state.done).toEqual([]);
    state = applyEvent(state, { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: ' = 1;\nconst b' });
    expect(state.done).toMatchObject([{ kind: 'assistant', text: 'para one\nstill one', continued: false }]);
    // The code block is still open: it stays live whole, never cut between its lines.
    state = applyEvent(state, { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: ' = 2;\n' });
    expect(state.done).toHaveLength(1);
    expect(liveItems(state)).toMatchObject([{ kind: 'assistant', text: '```js\nconst a = 1;\nconst b = 2;\n', continued: true }]);
  });

  it('never splits a message that arrives in one piece', () => {
    const state = run(emptyTranscript({ splitStreaming: true }), [...text('m', 'a\nb\nc'), finished('input-required', 'a\nb\nc')]);
    expect(state.done).toMatchObject([{ kind: 'question', text: 'a\nb\nc' }]);
  });

  it('appended items get fresh ids and wait behind anything still live', () => {
    let state = applyEvent(emptyTranscript(), { type: 'TOOL_CALL_START', toolCallId: 't', toolCallName: 'x' });
    state = appendItems(state, [{ kind: 'system', text: 'note', tone: 'warning' }]);
    expect(state.done).toEqual([]);
    const ids = liveItems(state).map((item) => item.id);
    expect(new Set(ids).size).toBe(2);
  });
});

describe('what the person answered', () => {
  const custom = (name: string, value: unknown): KernelEvent => ({ type: 'CUSTOM', name, value });
  const approval = (by: string, decision: 'approved' | 'refused', always?: boolean) =>
    custom('mcp.approval', {
      toolCallId: 'c',
      toolName: 'mcp_fs_write_file',
      server: 'fs',
      tool: 'write_file',
      arguments: {},
      decision,
      by,
      ...(always ? { always } : {}),
    });
  const shown = (events: KernelEvent[]) => run(emptyTranscript(), events).done.map((item) => ('text' in item ? [item.kind, item.text] : [item.kind]));

  it("a questionnaire's answers are one line in field order; no answer is said as such", () => {
    expect(
      shown([
        custom('questionnaire.result', {
          questionnaireId: 'q1',
          status: 'answered',
          answers: { environment: 'production', replicas: 2, regions: ['eu-west', 'us-east'], notify: false },
        }),
        custom('questionnaire.result', { questionnaireId: 'q2', status: 'no-answer', reason: 'declined' }),
      ]),
    ).toEqual([
      ['answer', 'environment: production · replicas: 2 · regions: eu-west, us-east · notify: no'],
      ['system', 'no answer: you declined'],
    ]);
  });

  it('an approval says who decided what, and its yes/no questionnaire adds no line of its own', () => {
    const asked = custom('question', {
      questionnaireId: 'approve_c',
      field: 'approve',
      question: 'Run it?',
      type: 'choice',
      required: true,
      index: 1,
      total: 1,
      purpose: { kind: 'approval' },
    });
    expect(
      shown([
        asked,
        custom('questionnaire.result', { questionnaireId: 'approve_c', status: 'answered', answers: { approve: 'yes' } }),
        approval('person', 'approved'),
        approval('person', 'approved', true),
        approval('session', 'approved'),
        approval('allow-tool', 'approved'),
        approval('person', 'refused'),
        approval('nobody', 'refused'),
      ]),
    ).toEqual([
      ['answer', 'approved by you: mcp_fs_write_file'],
      ['answer', 'approved by you, and always for the rest of this session: mcp_fs_write_file'],
      ['system', 'approved, as you said always for this session: mcp_fs_write_file'],
      ['system', 'approved by --allow-tool: mcp_fs_write_file'],
      ['answer', 'denied by you: mcp_fs_write_file'],
      ['system', 'denied, nobody at the prompt to approve: mcp_fs_write_file'],
    ]);
  });
});
