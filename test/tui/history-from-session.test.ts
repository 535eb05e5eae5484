import { describe, expect, it } from 'vitest';
import type { SessionEntry } from '../../src/session/entries.js';
import type { KernelEvent } from '../../src/kernel/events.js';
import { historyFromSession } from '../../src/hosts/tui/history-from-session.js';

const at = '2026-01-01T00:00:00.000Z';
const event = (e: KernelEvent, turnId = 't1'): SessionEntry => ({ kind: 'event', turnId, event: e, at });
const textEvents = (messageId: string, ...deltas: string[]): SessionEntry[] => [
  event({ type: 'TEXT_MESSAGE_START', messageId, role: 'assistant' }),
  ...deltas.map((delta) => event({ type: 'TEXT_MESSAGE_CONTENT', messageId, delta })),
  event({ type: 'TEXT_MESSAGE_END', messageId }),
];

describe('historyFromSession', () => {
  it('rebuilds messages, tool calls with results, the question, failures and system lines', () => {
    const question = 'Which production service should I deploy: api-west or api-east?';
    const entries: SessionEntry[] = [
      { kind: 'header', version: 1, sessionId: 's', agentName: 'demo', createdAt: at },
      { kind: 'user', turnId: 't1', text: 'deploy the api', at },
      event({ type: 'RUN_STARTED', threadId: 's', runId: 't1' }),
      ...textEvents('m1', 'There are two ', 'services.'),
      event({ type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'request_input' }),
      event({ type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: JSON.stringify({ prompt: question }) }),
      event({ type: 'TOOL_CALL_END', toolCallId: 'c1' }),
      // Model transcript and trace entries are not drawn.
      { kind: 'message', turnId: 't1', message: { role: 'assistant', content: 'ignored' } },
      { kind: 'record', turnId: 't1', name: 'request_input', data: { reason: 'secret reason' }, at },
      event({ type: 'TOOL_CALL_RESULT', messageId: 'r1', toolCallId: 'c1', content: question }),
      ...textEvents('m2', question),
      event({ type: 'RUN_FINISHED', threadId: 's', runId: 't1', result: { status: 'input-required', message: question } }),
      { kind: 'user', turnId: 't2', text: 'api-west', at },
      event({ type: 'RUN_STARTED', threadId: 's', runId: 't2' }, 't2'),
      event({ type: 'RUN_ERROR', message: 'could not reach http://127.0.0.1:9', code: 'failed' }, 't2'),
      event({ type: 'CUSTOM', name: 'auggy.system', value: { text: 'ask: blocked' } }),
    ];
    const { items, nextId, lastTurn } = historyFromSession(entries, 5);
    expect(items.map(({ id: _id, ...rest }) => rest)).toEqual([
      { kind: 'user', text: 'deploy the api' },
      { kind: 'assistant', text: 'There are two services.', continued: false },
      { kind: 'question', text: question },
      { kind: 'user', text: 'api-west' },
      { kind: 'turn-end', status: 'failed', message: 'could not reach http://127.0.0.1:9' },
      { kind: 'system', text: 'ask: blocked', tone: 'info' },
    ]);
    expect(JSON.stringify(items)).not.toContain('secret reason');
    expect(new Set(items.map((item) => item.id)).size).toBe(items.length);
    expect(items[0].id).toBe('i5');
    expect(nextId).toBeGreaterThan(5 + items.length - 1);
    expect(lastTurn).toEqual({ status: 'failed', message: 'could not reach http://127.0.0.1:9' });
  });

  it('keeps what a turn cut off by a crash had shown', () => {
    const { items, lastTurn } = historyFromSession([
      { kind: 'user', turnId: 't1', text: 'hello', at },
      event({ type: 'RUN_STARTED', threadId: 's', runId: 't1' }),
      event({ type: 'TEXT_MESSAGE_START', messageId: 'm', role: 'assistant' }),
      event({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'Half' }),
      event({ type: 'TOOL_CALL_START', toolCallId: 'c', toolCallName: 'fetch' }),
    ]);
    expect(items.map((item) => item.kind)).toEqual(['user', 'assistant', 'tool']);
    expect(items[2]).toMatchObject({ state: 'not-run' });
    expect(lastTurn).toBeUndefined();
  });

  it('reports the canceled status of the last turn and shows the partial text', () => {
    const { items, lastTurn } = historyFromSession([
      { kind: 'user', turnId: 't1', text: 'hello', at },
      ...textEvents('m', 'Thinking'),
      event({ type: 'RUN_FINISHED', threadId: 's', runId: 't1', result: { status: 'canceled', message: 'canceled while the model was answering' } }),
    ]);
    expect(items.map((item) => item.kind)).toEqual(['user', 'assistant', 'turn-end']);
    expect(lastTurn?.status).toBe('canceled');
  });
});
