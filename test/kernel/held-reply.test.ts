import { describe, expect, it } from 'vitest';
import type { KernelEvent } from '../../src/kernel/events.js';
import { holdRound } from '../../src/kernel/held-reply.js';

/** A round that said two text messages around a tool call. */
function round(emit: (event: KernelEvent) => void): void {
  emit({ type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' });
  emit({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'damn ' });
  emit({ type: 'TEXT_MESSAGE_END', messageId: 'm1' });
  emit({ type: 'TEXT_MESSAGE_START', messageId: 'm2', role: 'assistant' });
  emit({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm2', delta: 'it' });
  emit({ type: 'TEXT_MESSAGE_END', messageId: 'm2' });
  emit({ type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'lookup', parentMessageId: 'm2' });
  emit({ type: 'TOOL_CALL_END', toolCallId: 'c1' });
}

describe('a model round held until its reply is checked', () => {
  it('goes out nothing before release, then as it came when the reply stands', () => {
    const out: KernelEvent[] = [];
    const held = holdRound((event) => out.push(event));
    round(held.emit);
    expect(out).toEqual([]);
    held.release();
    expect(out.map((event) => event.type)).toEqual([
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_END',
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_END',
      'TOOL_CALL_START',
      'TOOL_CALL_END',
    ]);
  });

  it('held back, it says the reply as it now stands in the first text message, the line and the event after, and the tool call follows that message', () => {
    const out: KernelEvent[] = [];
    const held = holdRound((event) => out.push(event));
    round(held.emit);
    held.release({
      text: 'Sorry.',
      line: 'guardrail banned_words held back the reply',
      event: { name: 'workflow.guardrail', value: { validator: 'banned_words' } },
    });
    expect(out).toEqual([
      { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'Sorry.' },
      { type: 'TEXT_MESSAGE_END', messageId: 'm1' },
      { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'lookup', parentMessageId: 'm1' },
      { type: 'TOOL_CALL_END', toolCallId: 'c1' },
      { type: 'CUSTOM', name: 'auggy.system', value: { text: 'guardrail banned_words held back the reply' } },
      { type: 'CUSTOM', name: 'workflow.guardrail', value: { validator: 'banned_words' } },
    ]);
  });
});
