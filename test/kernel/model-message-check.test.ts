import { describe, expect, it } from 'vitest';
import { modelMessageSchema, type ModelMessage } from 'ai';
import { isSendableMessage } from '../../src/kernel/model-message-check.js';

const kernelShapes: unknown[] = [
  { role: 'user', content: 'hello' },
  { role: 'user', content: [{ type: 'text', text: 'hello' }] },
  { role: 'assistant', content: 'Hello!' },
  {
    role: 'assistant',
    content: [
      { type: 'text', text: 'A few details first.' },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'ask_user', input: { prompt: 'p', fields: [{ name: 'a' }] } },
    ],
  },
  { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'board_write', input: {} }] },
  { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'x', input: 'not an object', providerExecuted: false }] },
  { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'board_write', output: { type: 'text', value: 'ok' } }] },
  {
    role: 'tool',
    content: [
      {
        type: 'tool-result',
        toolCallId: 'c1',
        toolName: 'board_write',
        output: { type: 'json', value: { ok: true, line: { name: 'progress', at: null, n: 3.5, list: [1, 'a', null, { deep: [true] }] } } },
      },
    ],
  },
  { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 't', output: { type: 'error-text', value: 'refused' } }] },
  {
    role: 'tool',
    content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 't', output: { type: 'error-json', value: { reason: 'no', missing: undefined } } }],
  },
  { role: 'tool', content: [] },
];

const oddOrInvalid: unknown[] = [
  { role: 'system', content: 'not among the messages' },
  { role: 'user', content: [{ type: 'image', image: 'aGVsbG8=' }] },
  { role: 'user', content: 42 },
  { role: 'user', content: 'hi', providerOptions: { openai: { x: 1 } } },
  { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 1, toolName: 'x', input: {} }] },
  { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c', toolName: 'x', input: {}, providerExecuted: 'yes' }] },
  { role: 'assistant', content: [{ type: 'reasoning', text: 'hmm' }] },
  { role: 'assistant', content: [{ type: 'text' }] },
  { role: 'tool', content: 'text' },
  { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 't' }] },
  { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 't', output: { type: 'json', value: Number.NaN } }] },
  { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 't', output: { type: 'json', value: [Number.POSITIVE_INFINITY] } }] },
  { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 't', output: { type: 'json', value: [undefined] } }] },
  { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 't', output: { type: 'json', value: new Date(0) } }] },
  { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 't', output: { type: 'json', value: new Map() } }] },
  { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 't', output: { type: 'text', value: 3 } }] },
  { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 't', output: { type: 'content', value: [{ type: 'text', text: 'x' }] } }] },
  { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: 'a', approved: true }] },
  { role: 'robot', content: 'x' },
  null,
  'hello',
];

/** Random JSON-ish values, some of them not JSON at all. */
function randomValue(random: () => number, depth: number): unknown {
  const pick = Math.floor(random() * (depth > 3 ? 6 : 9));
  switch (pick) {
    case 0:
      return null;
    case 1:
      return 'text';
    case 2:
      return random() < 0.1 ? Number.NaN : random() * 100;
    case 3:
      return random() < 0.5;
    case 4:
      return undefined;
    case 5:
      return random() < 0.2 ? new Date(0) : 7;
    case 6:
      return Array.from({ length: Math.floor(random() * 3) }, () => randomValue(random, depth + 1));
    default:
      return Object.fromEntries(Array.from({ length: Math.floor(random() * 3) }, (_, i) => [`k${i}`, randomValue(random, depth + 1)]));
  }
}

describe('the check that a message is one the kernel sends', () => {
  it('accepts the shapes the kernel makes, and the AI SDK schema accepts each of them', () => {
    for (const message of kernelShapes) {
      expect(isSendableMessage(message as ModelMessage), JSON.stringify(message)).toBe(true);
      expect(modelMessageSchema.safeParse(message).success, JSON.stringify(message)).toBe(true);
    }
  });

  it('refuses every odd or invalid message, valid ModelMessages the kernel never makes among them', () => {
    for (const message of oddOrInvalid) expect(isSendableMessage(message as ModelMessage), String(JSON.stringify(message))).toBe(false);
  });

  it('never accepts a message the AI SDK schema refuses, over 3,000 random tool results and calls', () => {
    let seed = 17;
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    let accepted = 0;
    for (let i = 0; i < 3000; i++) {
      const value = randomValue(random, 0);
      const message =
        i % 2 === 0
          ? {
              role: 'tool',
              content: [{ type: 'tool-result', toolCallId: 'c', toolName: 't', output: { type: random() < 0.5 ? 'json' : 'error-json', value } }],
            }
          : { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c', toolName: 't', input: value }] };
      if (!isSendableMessage(message as ModelMessage)) continue;
      accepted++;
      expect(modelMessageSchema.safeParse(message).success, JSON.stringify(message)).toBe(true);
    }
    expect(accepted).toBeGreaterThan(1000);
  });
});
