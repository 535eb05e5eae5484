import { describe, expect, it } from 'vitest';
import { parseRunInput } from '../../src/hosts/agui/run-input.js';
import { HttpError } from '../../src/hosts/http/http-io.js';
import { isLoopbackHost } from '../../src/hosts/http/access.js';
import { runInput } from '../helpers/agui-events.js';

function refusal(body: unknown, max = 1000): { status: number; message: string } {
  try {
    parseRunInput(body, max);
  } catch (error) {
    if (error instanceof HttpError) return { status: error.status, message: error.message };
    throw error;
  }
  throw new Error('parseRunInput accepted the body');
}

describe('parseRunInput', () => {
  it('takes the last user message, the ids, and non-empty state', () => {
    const input = runInput('t-1', 'first', {
      messages: [
        { id: 'a', role: 'user', content: 'first' },
        { id: 'b', role: 'assistant', content: 'Which region?' },
        {
          id: 'c',
          role: 'user',
          content: [
            { type: 'text', text: 'eu-' },
            { type: 'text', text: 'west' },
          ],
        },
      ],
      state: { board: { goal: 'ship' } },
    });
    expect(parseRunInput(input, 1000)).toEqual({
      threadId: 't-1',
      runId: input.runId,
      input: { kind: 'message', text: 'eu-west', messageId: 'c', images: [] },
      history: input.messages.slice(0, 2),
      // No image in the history: nothing for a new thread to keep beside its text.
      historyImages: new Map(),
      tools: [],
      state: { board: { goal: 'ship' } },
      interrupts: false,
      resume: [],
    });
    expect(parseRunInput(runInput('t-1', 'hi', { state: {} }), 1000).state).toBeUndefined();
    expect(parseRunInput(runInput('t-1', 'hi', { state: null }), 1000).state).toBeUndefined();
  });

  it('a client that sends protocolVersion gets interrupts, and a resume makes the messages history', () => {
    const input = runInput('t-1', 'hi', { protocolVersion: '1.0.0', resume: [{ interruptId: 'int_1', status: 'resolved', payload: 'eu-west' }] });
    const parsed = parseRunInput(input, 1000);
    expect(parsed).toMatchObject({
      interrupts: true,
      input: { kind: 'resume' },
      history: input.messages,
      resume: [{ interruptId: 'int_1', status: 'resolved', payload: 'eu-west' }],
    });
    expect(parseRunInput(runInput('t-1', 'hi', { protocolVersion: '1.0.0' }), 1000)).toMatchObject({
      interrupts: true,
      input: { kind: 'message', text: 'hi' },
    });
  });

  it('names the field that is wrong', () => {
    expect(refusal({ runId: 'r', messages: [] })).toEqual({ status: 400, message: expect.stringMatching(/threadId is missing/) });
    expect(refusal({ ...runInput('t', 'x'), messages: 'hi' }).message).toMatch(/messages: expected array/);
    expect(refusal({ ...runInput('t', 'x'), messages: [{ id: 'm', role: 'user' }] }).message).toMatch(/messages\[0\]\.content is missing/);
    expect(refusal({ ...runInput('t', 'x'), messages: [{ id: 'm', role: 'user', content: 5 }] }).message).toMatch(
      /messages\[0\]\.content: expected string or expected array/,
    );
    expect(refusal('hello').message).toMatch(/not an AG-UI RunAgentInput/);
  });

  it('names every missing field at once, so a request typed by hand is fixed in one go', () => {
    expect(refusal({ messages: [{ role: 'user', content: 'hi' }] })).toEqual({
      status: 400,
      message: 'the body is not an AG-UI RunAgentInput: threadId, runId and messages[0].id are missing',
    });
    expect(refusal({ threadId: 't', messages: 'hi' }).message).toBe(
      'the body is not an AG-UI RunAgentInput: runId is missing; messages: expected array, received string',
    );
  });

  it('refuses state nested deeper than any page would send, naming where, before anything walks it', () => {
    let deep: unknown = {};
    for (let i = 0; i < 20_000; i++) deep = { a: deep };
    expect(refusal(runInput('t', 'hi', { state: deep }))).toEqual({
      status: 400,
      message: expect.stringMatching(/^state is nested more than 64 levels deep \(at state\.a\.a\.a.*\); send flatter state$/),
    });
    let fine: unknown = 'leaf';
    for (let i = 0; i < 63; i++) fine = [fine];
    expect(parseRunInput(runInput('t', 'hi', { state: { list: fine } }), 1000).state).toEqual({ list: fine });
  });

  it('bounds every message of the history a client resends, as it bounds the new one', () => {
    const long = 'x'.repeat(11);
    const history = [
      { id: 'a', role: 'user', content: 'first' },
      { id: 'b', role: 'assistant', content: long },
      { id: 'c', role: 'user', content: 'next' },
    ];
    expect(refusal({ ...runInput('t', 'next'), messages: history }, 10)).toEqual({
      status: 413,
      message: 'messages[1] (assistant) is 11 characters; this server takes at most 10 per message (--max-message-chars)',
    });
    const toolCall = { id: 'b', role: 'assistant', toolCalls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: `{"a":"${long}"}` } }] };
    expect(refusal({ ...runInput('t', 'next'), messages: [history[0], toolCall, history[2]] }, 10).status).toBe(413);
    expect(parseRunInput({ ...runInput('t', 'next'), messages: history }, 11).history).toHaveLength(2);
  });

  it('refuses ids that could leave the sessions folder, empty and oversized messages', () => {
    for (const id of ['..', '../x', 'a/b', 'a\\b', '-flag', 'x'.repeat(129)]) expect(refusal(runInput(id, 'hi')).status).toBe(400);
    expect(refusal(runInput('t', '   ')).message).toMatch(/no text/);
    expect(refusal(runInput('t', 'x'.repeat(11)), 10)).toEqual({ status: 413, message: expect.stringMatching(/11 characters; .* at most 10/) });
    expect(parseRunInput(runInput('t', 'x'.repeat(10)), 10).input).toMatchObject({ text: 'x'.repeat(10) });
  });
});

describe('parseRunInput with frontend tools', () => {
  it("messages ending in tool messages are the results of the last run's frontend tool calls", () => {
    const input = runInput('t-1', 'x', {
      messages: [
        { id: 'u', role: 'user', content: 'order it' },
        { id: 'a', role: 'assistant', toolCalls: [{ id: 'call_1', type: 'function', function: { name: 'confirm', arguments: '{}' } }] },
        { id: 't', role: 'tool', toolCallId: 'call_1', content: 'yes' },
      ],
      tools: [{ name: 'confirm', description: 'Ask the person to confirm', parameters: { type: 'object', properties: {} } }],
    });
    const parsed = parseRunInput(input, 1000);
    expect(parsed.input).toEqual({ kind: 'tool-results', results: [{ toolCallId: 'call_1', content: 'yes', messageId: 't' }] });
    expect(parsed.history.map((m) => m.id)).toEqual(['u', 'a']);
    expect(parsed.tools.map((t) => t.name)).toEqual(['confirm']);
  });

  it('messages that end with an assistant message are refused', () => {
    expect(
      refusal(
        runInput('t', 'x', {
          messages: [
            { id: 'u', role: 'user', content: 'hi' },
            { id: 'a', role: 'assistant', content: 'hello' },
          ],
        }),
      ).message,
    ).toMatch(/ends with no user message/);
  });
});

describe('isLoopbackHost', () => {
  it('knows loopback from everything else', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]', '::ffff:127.0.0.1']) expect(isLoopbackHost(host)).toBe(true);
    for (const host of ['0.0.0.0', '::', '192.168.1.5', '10.0.0.1', 'example.com', '128.0.0.1']) expect(isLoopbackHost(host)).toBe(false);
  });
});
