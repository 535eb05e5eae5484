import type { LanguageModelV3CallOptions, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { APICallError, jsonSchema, streamText, tool, type ModelMessage, type ToolSet } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { streamModel, type ModelStreamPart, type ModelTool } from '../../src/kernel/model-stream.js';
import { streamEssentials } from '../helpers/stream-essentials.js';

const usage = {
  inputTokens: { total: 7, noCache: 7, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 4, text: 4, reasoning: 0 },
};

/** A model that streams exactly these parts, recording the options of each call. */
function modelStreaming(parts: LanguageModelV3StreamPart[]): { model: MockLanguageModelV3; calls: LanguageModelV3CallOptions[] } {
  const calls: LanguageModelV3CallOptions[] = [];
  const model = new MockLanguageModelV3({
    doStream: async (options) => {
      calls.push(options);
      return {
        stream: new ReadableStream<LanguageModelV3StreamPart>({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  });
  return { model, calls };
}

const boardSchema = { type: 'object', properties: { line: { type: 'string' } } } as const;
/** One tool, as streamText takes it and as streamModel does. */
const sdkTools: ToolSet = { board_write: tool({ description: 'Sets a board line.', inputSchema: jsonSchema(boardSchema) }) };
const tools: ModelTool[] = [{ type: 'function', name: 'board_write', description: 'Sets a board line.', inputSchema: boardSchema }];

async function throughStreamText(parts: LanguageModelV3StreamPart[], messages: ModelMessage[]): Promise<Record<string, unknown>[]> {
  const result = streamText({ model: modelStreaming(parts).model, system: 'You help.', messages, tools: sdkTools, maxRetries: 0, onError: () => undefined });
  const seen: Record<string, unknown>[] = [];
  for await (const part of result.fullStream) {
    const kept = streamEssentials(part as unknown as Record<string, unknown>);
    if (kept) seen.push(kept);
  }
  return seen;
}

async function throughStreamModel(parts: LanguageModelV3StreamPart[], messages: ModelMessage[]): Promise<Record<string, unknown>[]> {
  const seen: Record<string, unknown>[] = [];
  const stream = streamModel({ model: modelStreaming(parts).model, system: 'You help.', messages, tools, signal: new AbortController().signal, maxRetries: 0 });
  for await (const part of stream) {
    const kept = streamEssentials(part as unknown as Record<string, unknown>);
    if (kept) seen.push(kept);
  }
  return seen;
}

const hello: ModelMessage[] = [{ role: 'user', content: 'hello' }];

const STREAMS: Record<string, LanguageModelV3StreamPart[]> = {
  'text, then tool calls: a good one, one not JSON, one to no such tool, one with empty input': [
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 't0' },
    { type: 'text-delta', id: 't0', delta: 'On ' },
    { type: 'text-delta', id: 't0', delta: '' },
    { type: 'text-delta', id: 't0', delta: 'it.' },
    { type: 'text-end', id: 't0' },
    { type: 'tool-input-start', id: 'c1', toolName: 'board_write' },
    { type: 'tool-input-delta', id: 'c1', delta: '{"line":"a"}' },
    { type: 'tool-input-end', id: 'c1' },
    { type: 'tool-call', toolCallId: 'c1', toolName: 'board_write', input: '{"line":"a"}' },
    { type: 'tool-call', toolCallId: 'c2', toolName: 'board_write', input: '{"line":' },
    { type: 'tool-call', toolCallId: 'c3', toolName: 'deploy', input: '{"to":"prod"}' },
    { type: 'tool-call', toolCallId: 'c4', toolName: 'board_write', input: '  ' },
    { type: 'finish', usage, finishReason: { unified: 'tool-calls', raw: 'tool_calls' } },
  ],
  'an error part, then the finish': [
    { type: 'text-start', id: 't0' },
    { type: 'text-delta', id: 't0', delta: 'Half' },
    { type: 'error', error: new Error('the server said no') },
    { type: 'finish', usage, finishReason: { unified: 'error', raw: undefined } },
  ],
  'an error part and no finish': [
    { type: 'text-start', id: 't0' },
    { type: 'text-delta', id: 't0', delta: 'Half' },
    { type: 'error', error: new Error('the connection dropped') },
  ],
  'text that ends without a finish': [
    { type: 'text-start', id: 't0' },
    { type: 'text-delta', id: 't0', delta: 'Cut' },
  ],
  'nothing at all': [{ type: 'stream-start', warnings: [] }],
  'a finish with no raw reason': [{ type: 'finish', usage, finishReason: { unified: 'other', raw: undefined } }],
};

describe('streamModel reads a LanguageModelV3 the way streamText does, without its stream pipeline', () => {
  for (const [name, parts] of Object.entries(STREAMS)) {
    it(`gives the kernel the same parts as streamText: ${name}`, async () => {
      const ours = await throughStreamModel(parts, hello);
      expect(ours).toEqual(await throughStreamText(parts, hello));
      expect(ours.length).toBeGreaterThan(0);
    });
  }

  it('tells why an invalid tool call is invalid, in words the model can act on', async () => {
    const parts = await throughStreamModel(STREAMS['text, then tool calls: a good one, one not JSON, one to no such tool, one with empty input'], hello);
    const stream = streamModel({
      model: modelStreaming([
        { type: 'tool-call', toolCallId: 'c2', toolName: 'board_write', input: '{"line":' },
        { type: 'tool-call', toolCallId: 'c3', toolName: 'deploy', input: '{"to":"prod"}' },
        { type: 'tool-call', toolCallId: 'c5', toolName: 'board_write', input: '{"__proto__":{"admin":true}}' },
        { type: 'finish', usage, finishReason: { unified: 'tool-calls', raw: 'tool_calls' } },
      ]).model,
      system: 's',
      messages: hello,
      tools,
      signal: new AbortController().signal,
      maxRetries: 0,
    });
    const calls: ModelStreamPart[] = [];
    for await (const part of stream) if (part.type === 'tool-call') calls.push(part);
    expect(calls).toEqual([
      { type: 'tool-call', toolCallId: 'c2', toolName: 'board_write', input: '{"line":', invalidReason: expect.stringMatching(/JSON/) },
      { type: 'tool-call', toolCallId: 'c3', toolName: 'deploy', input: { to: 'prod' }, invalidReason: 'no tool named "deploy" was offered' },
      {
        type: 'tool-call',
        toolCallId: 'c5',
        toolName: 'board_write',
        input: '{"__proto__":{"admin":true}}',
        invalidReason: 'the input names an object prototype',
      },
    ]);
    expect(parts.filter((part) => part.type === 'tool-call').map((part) => part.invalid)).toEqual([false, true, true, false]);
  });

  it('sends the provider the prompt, tools, tool choice and output limit streamText sends', async () => {
    // As the kernel keeps them: one tool message per result, an empty text part beside a call.
    const messages: ModelMessage[] = [
      { role: 'user', content: 'hello' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: '' },
          { type: 'tool-call', toolCallId: 'c1', toolName: 'board_write', input: { line: 'a' } },
          { type: 'tool-call', toolCallId: 'c2', toolName: 'board_write', input: '{"line":' },
        ],
      },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'board_write', output: { type: 'text', value: 'set' } }] },
      { role: 'tool', content: [] },
      {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: 'c2', toolName: 'board_write', output: { type: 'error-json', value: { reason: 'not JSON' } } }],
      },
      { role: 'assistant', content: 'Set.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'and ' },
          { type: 'text', text: '' },
          { type: 'text', text: 'then?' },
        ],
      },
    ];
    const finish: LanguageModelV3StreamPart[] = [{ type: 'finish', usage, finishReason: { unified: 'stop', raw: 'stop' } }];
    const viaSdk = modelStreaming(finish);
    await streamText({ model: viaSdk.model, system: 'You help.', messages, tools: sdkTools, maxRetries: 0, maxOutputTokens: 321 }).consumeStream();
    const viaKernel = modelStreaming(finish);
    for await (const part of streamModel({
      model: viaKernel.model,
      system: 'You help.',
      messages,
      tools,
      signal: new AbortController().signal,
      maxRetries: 0,
      maxOutputTokens: 321,
    }))
      void part;
    const sent = (options: LanguageModelV3CallOptions) => ({
      prompt: options.prompt,
      tools: options.tools,
      toolChoice: options.toolChoice,
      maxOutputTokens: options.maxOutputTokens,
    });
    expect(sent(viaKernel.calls[0])).toEqual(sent(viaSdk.calls[0]));
    expect(viaKernel.calls[0].maxOutputTokens).toBe(321);
    expect(viaKernel.calls[0].prompt.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'user']);
  });

  it('sends no tools and no tool choice when the call offers none, as streamText does', async () => {
    const finish: LanguageModelV3StreamPart[] = [{ type: 'finish', usage, finishReason: { unified: 'stop', raw: 'stop' } }];
    const viaSdk = modelStreaming(finish);
    await streamText({ model: viaSdk.model, system: 'Judge.', prompt: 'the transcript', maxRetries: 0 }).consumeStream();
    const viaKernel = modelStreaming(finish);
    for await (const part of streamModel({
      model: viaKernel.model,
      system: 'Judge.',
      prompt: 'the transcript',
      tools: [],
      signal: new AbortController().signal,
      maxRetries: 0,
    }))
      void part;
    const sent = (options: LanguageModelV3CallOptions) => ({ prompt: options.prompt, tools: options.tools, toolChoice: options.toolChoice });
    expect(sent(viaKernel.calls[0])).toEqual(sent(viaSdk.calls[0]));
    expect(viaKernel.calls[0].tools).toBeUndefined();
  });

  it('retries a call the provider refused as retryable, waiting the backoff first', async () => {
    let attempts = 0;
    const model = new MockLanguageModelV3({
      doStream: async () => {
        attempts++;
        if (attempts === 1) throw new APICallError({ message: 'busy', url: 'http://127.0.0.1/v1', requestBodyValues: {}, statusCode: 503, isRetryable: true });
        return {
          stream: new ReadableStream<LanguageModelV3StreamPart>({
            start: (c) => (c.enqueue({ type: 'finish', usage, finishReason: { unified: 'stop', raw: 'stop' } }), c.close()),
          }),
        };
      },
    });
    const parts: ModelStreamPart[] = [];
    const waits: number[] = [];
    const retryWait = async (ms: number) => void waits.push(ms);
    for await (const part of streamModel({ model, system: 's', messages: hello, signal: new AbortController().signal, maxRetries: 2, retryWait }))
      parts.push(part);
    expect(attempts).toBe(2);
    expect(waits).toEqual([2000]);
    expect(parts.at(-1)).toMatchObject({ type: 'finish-step', finishReason: 'stop' });
  });

  it('refuses a message the kernel does not send, saying which, before calling the model', async () => {
    const { model, calls } = modelStreaming([]);
    const bad = [{ role: 'user', content: [{ type: 'picture', url: 'x' }] }] as unknown as ModelMessage[];
    const run = async () => {
      for await (const part of streamModel({ model, system: 's', messages: bad, signal: new AbortController().signal, maxRetries: 0 })) void part;
    };
    await expect(run()).rejects.toThrow(
      "message 1 (a user message) is not text, an image, a tool call or a tool result, so it cannot be sent; the session's events.jsonl may be damaged",
    );
    expect(calls).toHaveLength(0);
  });

  it('refuses a plain text message that carries anything else (provider options)', async () => {
    const { model, calls } = modelStreaming([]);
    const bad = [{ role: 'user', content: 'hello', providerOptions: 'fast' }] as unknown as ModelMessage[];
    const run = async () => {
      for await (const part of streamModel({ model, system: 's', messages: bad, signal: new AbortController().signal, maxRetries: 0 })) void part;
    };
    await expect(run()).rejects.toThrow('message 1 (a user message) is not text');
    expect(calls).toHaveLength(0);
  });

  it('refuses a conversation with a tool call left without its result, as providers would', async () => {
    const { model, calls } = modelStreaming([]);
    const open: ModelMessage[] = [
      { role: 'user', content: 'hello' },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'board_write', input: {} }] },
      { role: 'user', content: 'well?' },
    ];
    const run = async () => {
      for await (const part of streamModel({ model, system: 's', messages: open, signal: new AbortController().signal, maxRetries: 0 })) void part;
    };
    await expect(run()).rejects.toThrow('tool call c1 has no result in the conversation; every tool call needs its result before the model is called again');
    expect(calls).toHaveLength(0);
  });

  it('stops reading once the call is aborted, and says so', async () => {
    const controller = new AbortController();
    const { model } = modelStreaming([
      { type: 'text-start', id: 't0' },
      { type: 'text-delta', id: 't0', delta: 'one' },
      { type: 'text-delta', id: 't0', delta: 'two' },
    ]);
    const parts: ModelStreamPart[] = [];
    for await (const part of streamModel({ model, system: 's', messages: hello, signal: controller.signal, maxRetries: 0 })) {
      parts.push(part);
      if (part.type === 'text-delta') controller.abort();
    }
    expect(parts.map((part) => part.type)).toEqual(['text-start', 'text-delta', 'abort']);
  });
});
