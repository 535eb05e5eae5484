import type { LanguageModelV3CallOptions, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { APICallError, jsonSchema, streamText, tool, type ModelMessage, type ToolSet } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { streamModel, type ModelStreamPart } from '../../src/kernel/model-stream.js';

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

const tools: ToolSet = {
  board_write: tool({ description: 'Sets a board line.', inputSchema: jsonSchema({ type: 'object', properties: { line: { type: 'string' } } }) }),
};

/** The fields the kernel reads from each part, errors as their messages, so both sides compare. */
function essentials(part: Record<string, unknown>): Record<string, unknown> | undefined {
  const error = part.error instanceof Error ? part.error.message : part.error;
  switch (part.type) {
    case 'text-start':
    case 'text-end':
    case 'tool-input-end':
      return { type: part.type, id: part.id };
    case 'text-delta':
      return { type: part.type, id: part.id, text: part.text };
    case 'tool-input-start':
      return { type: part.type, id: part.id, toolName: part.toolName };
    case 'tool-input-delta':
      return { type: part.type, id: part.id, delta: part.delta };
    case 'tool-call':
      return { type: part.type, toolCallId: part.toolCallId, toolName: part.toolName, input: part.input, invalid: part.invalid === true, error };
    case 'finish-step': {
      const spent = part.usage as { inputTokens?: number; outputTokens?: number };
      return { type: part.type, finishReason: part.finishReason, rawFinishReason: part.rawFinishReason, inputTokens: spent.inputTokens, outputTokens: spent.outputTokens };
    }
    case 'error':
      return { type: part.type, error };
    case 'abort':
      return { type: part.type };
    default:
      return undefined;
  }
}

async function throughStreamText(parts: LanguageModelV3StreamPart[], messages: ModelMessage[]): Promise<Record<string, unknown>[]> {
  const result = streamText({ model: modelStreaming(parts).model, system: 'You help.', messages, tools, maxRetries: 0, onError: () => undefined });
  const seen: Record<string, unknown>[] = [];
  for await (const part of result.fullStream) {
    const kept = essentials(part as unknown as Record<string, unknown>);
    if (kept) seen.push(kept);
  }
  return seen;
}

async function throughStreamModel(parts: LanguageModelV3StreamPart[], messages: ModelMessage[]): Promise<Record<string, unknown>[]> {
  const seen: Record<string, unknown>[] = [];
  const stream = streamModel({ model: modelStreaming(parts).model, system: 'You help.', messages, tools, signal: new AbortController().signal, maxRetries: 0 });
  for await (const part of stream) {
    const kept = essentials(part as unknown as Record<string, unknown>);
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

describe('streamModel reads a model the way streamText does, without its stream pipeline', () => {
  for (const [name, parts] of Object.entries(STREAMS)) {
    it(`gives the kernel the same parts as streamText: ${name}`, async () => {
      const ours = await throughStreamModel(parts, hello);
      expect(ours).toEqual(await throughStreamText(parts, hello));
      expect(ours.length).toBeGreaterThan(0);
    });
  }

  it('sends the provider the prompt, tools, tool choice and output limit streamText sends', async () => {
    const messages: ModelMessage[] = [
      { role: 'user', content: 'hello' },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'board_write', input: { line: 'a' } }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'board_write', output: { type: 'text', value: 'set' } }] },
    ];
    const finish: LanguageModelV3StreamPart[] = [{ type: 'finish', usage, finishReason: { unified: 'stop', raw: 'stop' } }];
    const viaSdk = modelStreaming(finish);
    await streamText({ model: viaSdk.model, system: 'You help.', messages, tools, maxRetries: 0, maxOutputTokens: 321 }).consumeStream();
    const viaKernel = modelStreaming(finish);
    for await (const part of streamModel({ model: viaKernel.model, system: 'You help.', messages, tools, signal: new AbortController().signal, maxRetries: 0, maxOutputTokens: 321 })) void part;
    const sent = (options: LanguageModelV3CallOptions) => ({ prompt: options.prompt, tools: options.tools, toolChoice: options.toolChoice, maxOutputTokens: options.maxOutputTokens });
    expect(sent(viaKernel.calls[0])).toEqual(sent(viaSdk.calls[0]));
    expect(viaKernel.calls[0].maxOutputTokens).toBe(321);
  });

  it('retries a call the server refused with a retryable status, with the SDK backoff', async () => {
    let attempts = 0;
    const model = new MockLanguageModelV3({
      doStream: async () => {
        attempts++;
        if (attempts === 1) throw new APICallError({ message: 'busy', url: 'http://127.0.0.1/v1', requestBodyValues: {}, statusCode: 503, isRetryable: true });
        return { stream: new ReadableStream<LanguageModelV3StreamPart>({ start: (c) => (c.enqueue({ type: 'finish', usage, finishReason: { unified: 'stop', raw: 'stop' } }), c.close()) }) };
      },
    });
    const parts: ModelStreamPart[] = [];
    for await (const part of streamModel({ model, system: 's', messages: hello, signal: new AbortController().signal, maxRetries: 2 })) parts.push(part);
    expect(attempts).toBe(2);
    expect(parts.at(-1)).toMatchObject({ type: 'finish-step', finishReason: 'stop' });
  });

  it('refuses a message that is not a ModelMessage with the SDK error, before calling the model', async () => {
    const { model, calls } = modelStreaming([]);
    const bad = [{ role: 'user', content: [{ type: 'picture', url: 'x' }] }] as unknown as ModelMessage[];
    const run = async () => {
      for await (const part of streamModel({ model, system: 's', messages: bad, signal: new AbortController().signal, maxRetries: 0 })) void part;
    };
    await expect(run()).rejects.toThrow('The messages do not match the ModelMessage[] schema.');
    expect(calls).toHaveLength(0);
  });

  it('checks a plain text message that carries anything else (provider options) like any other', async () => {
    const { model, calls } = modelStreaming([]);
    const bad = [{ role: 'user', content: 'hello', providerOptions: 'fast' }] as unknown as ModelMessage[];
    const run = async () => {
      for await (const part of streamModel({ model, system: 's', messages: bad, signal: new AbortController().signal, maxRetries: 0 })) void part;
    };
    await expect(run()).rejects.toThrow('The messages do not match the ModelMessage[] schema.');
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
