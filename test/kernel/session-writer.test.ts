import { describe, expect, it } from 'vitest';
import type { ModelMessage } from 'ai';
import { SessionWriter } from '../../src/kernel/session-writer.js';
import type { KernelEvent } from '../../src/kernel/events.js';
import type { SessionEntry } from '../../src/session/entries.js';
import { transcriptFromEntries } from '../../src/session/transcript.js';

function recordingLog() {
  const entries: SessionEntry[] = [{ kind: 'header', version: 1, sessionId: 's', agentName: 'demo', createdAt: 'now' }];
  return { entries, log: new SessionWriter((entry) => entries.push(entry)) };
}

const events = (entries: SessionEntry[]) => entries.flatMap((entry) => (entry.kind === 'event' ? [entry.event] : []));

function streamReply(log: SessionWriter, messageId: string, words: string[]): void {
  log.event({ type: 'TEXT_MESSAGE_START', messageId, role: 'assistant' }, 'run_1');
  for (const delta of words) log.event({ type: 'TEXT_MESSAGE_CONTENT', messageId, delta }, 'run_1');
  log.event({ type: 'TEXT_MESSAGE_END', messageId }, 'run_1');
}

describe('the session writer', () => {
  it('writes a streamed text message as one content entry, when the message ends', () => {
    const { entries, log } = recordingLog();
    log.entry({ kind: 'user', turnId: 'run_1', text: 'hi', at: 'now' });
    log.event({ type: 'TEXT_MESSAGE_START', messageId: 'msg_a', role: 'assistant' }, 'run_1');
    log.event({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'msg_a', delta: 'Hello ' }, 'run_1');
    log.event({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'msg_a', delta: 'there' }, 'run_1');
    // Nothing of the message is written while it streams.
    expect(events(entries).map((event) => event.type)).toEqual(['TEXT_MESSAGE_START']);
    log.event({ type: 'TEXT_MESSAGE_END', messageId: 'msg_a' }, 'run_1');
    expect(events(entries)).toEqual([
      { type: 'TEXT_MESSAGE_START', messageId: 'msg_a', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'msg_a', delta: 'Hello there' },
      { type: 'TEXT_MESSAGE_END', messageId: 'msg_a' },
    ]);
  });

  it("writes a tool call's streamed arguments as one entry, in the order the events came", () => {
    const { entries, log } = recordingLog();
    const stream: KernelEvent[] = [
      { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'board_write' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{"line":' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '"progress"}' },
      { type: 'TOOL_CALL_START', toolCallId: 'c2', toolCallName: 'board_read' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'c2', delta: '{}' },
      { type: 'TOOL_CALL_END', toolCallId: 'c1' },
      { type: 'TOOL_CALL_END', toolCallId: 'c2' },
    ];
    stream.forEach((event) => log.event(event, 'run_1'));
    expect(events(entries)).toEqual([
      stream[0],
      { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{"line":"progress"}' },
      stream[3],
      stream[4],
      stream[5],
      stream[6],
    ]);
  });

  it('stores the reply text once: the assistant message refers to the text entries, and the transcript gets it back', () => {
    const { entries, log } = recordingLog();
    log.entry({ kind: 'user', turnId: 'run_1', text: 'hi', at: 'now' });
    streamReply(log, 'msg_a', ['A long ', 'reply.']);
    const assistant: ModelMessage = {
      role: 'assistant',
      content: [
        { type: 'text', text: 'A long reply.' },
        { type: 'tool-call', toolCallId: 'c1', toolName: 'board_read', input: {} },
      ],
    };
    log.message(assistant, 'run_1');
    const stored = entries.at(-1);
    expect(stored).toEqual({ kind: 'message', turnId: 'run_1', message: { role: 'assistant', content: [assistant.content[1]] }, textFrom: ['msg_a'] });
    expect(JSON.stringify(entries).split('A long ').length - 1).toBe(1);
    expect(transcriptFromEntries(entries).slice(0, 2)).toEqual([{ role: 'user', content: 'hi' }, assistant]);
  });

  it('writes a message whole when its text is not what the log showed', () => {
    const { entries, log } = recordingLog();
    log.entry({ kind: 'user', turnId: 'run_1', text: 'hi', at: 'now' });
    streamReply(log, 'msg_a', ['shown']);
    const assistant: ModelMessage = { role: 'assistant', content: [{ type: 'text', text: 'something else' }] };
    log.message(assistant, 'run_1');
    expect(entries.at(-1)).toEqual({ kind: 'message', turnId: 'run_1', message: assistant });
    expect(transcriptFromEntries(entries)).toEqual([{ role: 'user', content: 'hi' }, assistant]);
  });

  it("never lets a new turn's message refer to an earlier turn's text", () => {
    const { entries, log } = recordingLog();
    log.entry({ kind: 'user', turnId: 'run_1', text: 'one', at: 'now' });
    streamReply(log, 'msg_a', ['same']);
    log.entry({ kind: 'user', turnId: 'run_2', text: 'two', at: 'now' });
    const assistant: ModelMessage = { role: 'assistant', content: [{ type: 'text', text: 'same' }] };
    log.message(assistant, 'run_2');
    expect(entries.at(-1)).toEqual({ kind: 'message', turnId: 'run_2', message: assistant });
  });

  it('still rebuilds the transcript of an older log, one entry per delta and whole messages', () => {
    const entries: SessionEntry[] = [
      { kind: 'header', version: 1, sessionId: 's', agentName: 'demo', createdAt: 'now' },
      { kind: 'user', turnId: 'r', text: 'hi', at: 'now' },
      { kind: 'event', turnId: 'r', event: { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'Hel' }, at: 'now' },
      { kind: 'event', turnId: 'r', event: { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'lo' }, at: 'now' },
      { kind: 'message', turnId: 'r', message: { role: 'assistant', content: [{ type: 'text', text: 'Hello' }] } },
    ];
    expect(transcriptFromEntries(entries)).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: [{ type: 'text', text: 'Hello' }] },
    ]);
  });
});
