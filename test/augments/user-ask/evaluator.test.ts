import { describe, expect, it } from 'vitest';
import type { ModelMessage } from 'ai';
import { replaceAsk, applyEvaluation } from '../../../src/augments/user-ask/ask-state.js';
import { evaluateTurn, evaluatorPrompt } from '../../../src/augments/user-ask/evaluator.js';
import { MAX_PART_CHARS, renderTranscript } from '../../../src/augments/render-transcript.js';

const now = new Date('2025-01-01T00:00:00Z');

const transcript: ModelMessage[] = [
  { role: 'user', content: 'deploy the api' },
  {
    role: 'assistant',
    content: [
      { type: 'reasoning', text: 'private thoughts' },
      { type: 'text', text: 'Checking the targets.' },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'request_input', input: { prompt: 'Which one?' } },
    ],
  },
  { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'request_input', output: { type: 'text', value: 'Which one?' } }] },
  { role: 'user', content: 'api-west' },
  { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c2', toolName: 'deploy', input: { service: 'api-west' } }] },
  { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c2', toolName: 'deploy', output: { type: 'error-text', value: 'permission denied' } }] },
];

describe('the evaluator input', () => {
  it('renders the transcript as plain lines: messages, tool calls and results (errors marked), no reasoning', () => {
    expect(renderTranscript(transcript)).toBe(
      [
        '[user] deploy the api',
        '[assistant] Checking the targets.',
        '[tool call request_input] {"prompt":"Which one?"}',
        '[tool result request_input] Which one?',
        '[user] api-west',
        '[tool call deploy] {"service":"api-west"}',
        '[tool result deploy, error] permission denied',
      ].join('\n'),
    );
  });

  it('cuts long parts and keeps the newest messages when the transcript is too long', () => {
    const long: ModelMessage[] = Array.from({ length: 10 }, (_, i) => ({ role: 'user' as const, content: `${i} ${'x'.repeat(3000)}` }));
    const text = renderTranscript(long, 5000);
    expect(text.startsWith('[8 earlier messages left out]\n[user] 8 ')).toBe(true);
    expect(text.split('\n')).toHaveLength(3);
    expect(text.split('\n')[2].length).toBeLessThanOrEqual(`[user] `.length + MAX_PART_CHARS + ' [cut]'.length);
  });

  it('the prompt has the ask, earlier asks with how they ended, the transcript and the latest turn', () => {
    let state = replaceAsk(undefined, 'fix the login bug', 'user', now);
    state = replaceAsk(applyEvaluation(state, 'achieved', 'fixed'), 'deploy the api', 'user', now);
    state = replaceAsk(state, 'api-west', 'user', now);
    const prompt = evaluatorPrompt(state, { status: 'completed', text: '', message: undefined, transcript });
    expect(prompt).toContain('<ask>\napi-west\n</ask>');
    expect(prompt).toContain('<earlier_asks oldest_first="true">\n- [achieved] fix the login bug\n- deploy the api\n</earlier_asks>');
    expect(prompt).toContain('<transcript>\n[user] deploy the api');
    expect(prompt).toContain('<latest_turn status="completed">\n(no text)\n</latest_turn>');
  });

  it('a completion that throws is reported as a failed call, never thrown on', async () => {
    const state = replaceAsk(undefined, 'x', 'user', now);
    const result = await evaluateTurn(async () => Promise.reject(new Error('boom')), state, { status: 'completed', text: 'ok', transcript: [] });
    expect(result).toEqual({ ok: false, error: 'boom', code: 'internal_error' });
  });
});
