import { describe, expect, it } from 'vitest';
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { RunStream } from '../../src/hosts/agui/run-stream.js';
import { checkRunSequence, validateEach } from '../helpers/agui-events.js';

/**
 * Just enough of a ServerResponse to capture what the stream writes. Corking behaves as Node's:
 * writes while corked are held and go out as one when uncorked, and end() sends whatever is held.
 */
class CapturedResponse extends EventEmitter {
  body = '';
  /** How many times bytes went to the (imagined) socket. */
  sends = 0;
  private held = '';
  private corked = 0;
  status = 0;
  headers: Record<string, string> = {};
  destroyed = false;
  writableEnded = false;
  writeHead(status: number, headers: Record<string, string>) {
    this.status = status;
    this.headers = headers;
    return this;
  }
  write(chunk: string) {
    this.held += chunk;
    if (this.corked === 0) this.send();
    return true;
  }
  cork() {
    this.corked++;
  }
  uncork() {
    if (this.corked > 0) this.corked--;
    if (this.corked === 0) this.send();
  }
  end(callback?: () => void) {
    this.corked = 0;
    this.send();
    this.writableEnded = true;
    callback?.();
    return this;
  }
  private send() {
    if (this.held === '') return;
    this.body += this.held;
    this.held = '';
    this.sends++;
  }
  events(): unknown[] {
    return this.body
      .split('\n\n')
      .filter((frame) => frame.startsWith('data: '))
      .map((frame) => JSON.parse(frame.slice(6)) as unknown);
  }
}

const ids = { threadId: 'thread-1', runId: 'client-run-1' };

function open(): { res: CapturedResponse; stream: RunStream } {
  const res = new CapturedResponse();
  const stream = new RunStream(res as unknown as ServerResponse, ids);
  stream.open();
  return { res, stream };
}

describe('RunStream keeps the AG-UI sequence whatever the kernel sends', () => {
  it('substitutes the client ids and drops the kernel run bounds', async () => {
    const { res, stream } = open();
    stream.forward({ type: 'RUN_STARTED', threadId: 'session', runId: 'run_kernel' });
    stream.forward({ type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' });
    stream.forward({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'hi' });
    stream.forward({ type: 'TEXT_MESSAGE_END', messageId: 'm1' });
    stream.forward({ type: 'RUN_FINISHED', threadId: 'session', runId: 'run_kernel', result: { status: 'completed' } });
    await stream.finish({ status: 'completed' });
    const events = validateEach(res.events());
    checkRunSequence(events, ids);
    expect(events.map((e) => e.type)).toEqual(['RUN_STARTED', 'TEXT_MESSAGE_START', 'TEXT_MESSAGE_CONTENT', 'TEXT_MESSAGE_END', 'RUN_FINISHED']);
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
  });

  it('closes text messages and tool calls left open before the terminal event', async () => {
    const { res, stream } = open();
    stream.forward({ type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' });
    stream.forward({ type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'request_input', parentMessageId: 'm1' });
    stream.forward({ type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{"pro' });
    await stream.finish({ status: 'canceled', message: 'the client disconnected' });
    const events = validateEach(res.events());
    checkRunSequence(events, ids);
    expect(events.at(-1)).toMatchObject({
      type: 'RUN_FINISHED',
      result: { status: 'canceled', message: 'the client disconnected' },
      outcome: { type: 'cancelled' },
    });
  });

  it('a failed turn is one RUN_ERROR; nothing is sent after the terminal event', async () => {
    const { res, stream } = open();
    await stream.finish({ status: 'failed', message: 'http://10.0.0.5:8000 refused the credentials (HTTP 401)', code: 'provider_auth' });
    stream.forward({ type: 'CUSTOM', name: 'late', value: 1 });
    await stream.finish({ status: 'completed' });
    const events = validateEach(res.events());
    checkRunSequence(events, ids);
    expect(events.map((e) => e.type)).toEqual(['RUN_STARTED', 'RUN_ERROR']);
    // The client learns the kind; the address stays in the operator's log.
    expect(events[1]).toMatchObject({ code: 'provider_auth', message: expect.stringMatching(/refused the credentials/) });
    expect(JSON.stringify(events[1])).not.toContain('10.0.0.5');
  });

  it('drops deltas and ends for messages that are not open, and maps tool results for AG-UI', async () => {
    const { res, stream } = open();
    stream.forward({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'ghost', delta: 'x' });
    stream.forward({ type: 'TOOL_CALL_END', toolCallId: 'ghost' });
    stream.forward({ type: 'TOOL_CALL_RESULT', messageId: 'r1', toolCallId: 'c1', content: 'bad input', isError: true });
    stream.forward({ type: 'STATE_SNAPSHOT', snapshot: { board: {} } });
    stream.forward({ type: 'STATE_DELTA', delta: [{ op: 'add', path: '/board/x', value: 'y' }] });
    await stream.finish({ status: 'input-required', message: 'Which region?' });
    const events = validateEach(res.events());
    checkRunSequence(events, ids);
    expect(events.map((e) => e.type)).toEqual(['RUN_STARTED', 'TOOL_CALL_RESULT', 'STATE_SNAPSHOT', 'STATE_DELTA', 'RUN_FINISHED']);
    expect(events[1]).toEqual(expect.objectContaining({ role: 'tool', content: 'bad input' }));
    expect(events[1]).not.toHaveProperty('isError');
    expect(events.at(-1)).toMatchObject({ result: { status: 'input-required', message: 'Which region?' } });
    expect(events.at(-1)).not.toHaveProperty('outcome');
  });

  it('sends the events of one turn of the event loop together, once that turn ends', async () => {
    const { res, stream } = open();
    stream.forward({ type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' });
    stream.forward({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'Hello ' });
    stream.forward({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'there' });
    // Held while this turn still writes: RUN_STARTED and the three events leave as one.
    expect(res.sends).toBe(0);
    await new Promise((resolve) => setImmediate(resolve));
    expect(res.sends).toBe(1);
    expect(validateEach(res.events()).map((e) => e.type)).toEqual(['RUN_STARTED', 'TEXT_MESSAGE_START', 'TEXT_MESSAGE_CONTENT', 'TEXT_MESSAGE_CONTENT']);
    // A later chunk is not held back waiting for anything: it goes out when its own turn ends.
    stream.forward({ type: 'TEXT_MESSAGE_END', messageId: 'm1' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(res.sends).toBe(2);
    await stream.finish({ status: 'completed' });
    const events = validateEach(res.events());
    checkRunSequence(events, ids);
    expect(events.map((e) => e.type)).toEqual([
      'RUN_STARTED',
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_END',
      'RUN_FINISHED',
    ]);
  });
});
