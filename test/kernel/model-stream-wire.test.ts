import type { LanguageModelV3 } from '@ai-sdk/provider';
import { jsonSchema, streamText, tool, type ModelMessage, type ToolSet } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { streamModel, type ModelStreamPart, type ModelTool } from '../../src/kernel/model-stream.js';
import { ModelRetriesError } from '../../src/model/call-retries.js';
import { createModel } from '../../src/model/create-model.js';
import { describeModelError } from '../../src/model/describe-error.js';
import type { ModelSpec } from '../../src/model/model-spec.js';
import { messageStart, startAnthropicServer } from '../helpers/anthropic-server.js';
import { startChatServer, type ChatReply, type ChatServer } from '../helpers/chat-server.js';
import { streamEssentials } from '../helpers/stream-essentials.js';

// The providers' real streams: the provider packages talking to loopback servers that speak
// their wire formats. What streamModel reads from them, and what it sends them, is held to what
// the AI SDK's streamText reads and sends.

let servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

async function chatServer(reply: ChatReply | ChatReply[]): Promise<ChatServer> {
  const server = await startChatServer(Array.isArray(reply) ? reply : () => reply);
  servers.push(server);
  return server;
}

async function modelFor(spec: ModelSpec): Promise<LanguageModelV3> {
  const built = await createModel(spec);
  if (!built.ok) throw new Error(built.error);
  return built.model;
}

const boardSchema = { type: 'object', properties: { line: { type: 'string' } }, required: ['line'] } as const;
const sdkTools: ToolSet = { board_write: tool({ description: 'Sets a board line.', inputSchema: jsonSchema(boardSchema) }) };
const tools: ModelTool[] = [{ type: 'function', name: 'board_write', description: 'Sets a board line.', inputSchema: boardSchema }];

/** A conversation as the kernel keeps one: each tool result its own message. */
const conversation: ModelMessage[] = [
  { role: 'user', content: 'Put two lines on the board.' },
  {
    role: 'assistant',
    content: [
      { type: 'text', text: 'On it.' },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'board_write', input: { line: 'a' } },
      { type: 'tool-call', toolCallId: 'c2', toolName: 'board_write', input: '{"line":' },
    ],
  },
  { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'board_write', output: { type: 'text', value: 'set' } }] },
  {
    role: 'tool',
    content: [{ type: 'tool-result', toolCallId: 'c2', toolName: 'board_write', output: { type: 'error-text', value: 'The arguments were not valid JSON.' } }],
  },
  { role: 'user', content: 'And the second?' },
];

interface Seen {
  parts: Record<string, unknown>[];
  body: unknown;
}

async function throughStreamText(model: LanguageModelV3, requests: { body: unknown }[]): Promise<Seen> {
  const result = streamText({
    model,
    system: 'You keep the board.',
    messages: conversation,
    tools: sdkTools,
    maxRetries: 0,
    maxOutputTokens: 500,
    onError: () => undefined,
  });
  const parts: Record<string, unknown>[] = [];
  for await (const part of result.fullStream) {
    const kept = streamEssentials(part as unknown as Record<string, unknown>);
    if (kept) parts.push(kept);
  }
  return { parts, body: requests.at(-1)?.body };
}

async function throughStreamModel(model: LanguageModelV3, requests: { body: unknown }[]): Promise<Seen> {
  const parts: Record<string, unknown>[] = [];
  const stream = streamModel({
    model,
    system: 'You keep the board.',
    messages: conversation,
    tools,
    signal: new AbortController().signal,
    maxRetries: 0,
    maxOutputTokens: 500,
  });
  for await (const part of stream) {
    const kept = streamEssentials(part as unknown as Record<string, unknown>);
    if (kept) parts.push(kept);
  }
  return { parts, body: requests.at(-1)?.body };
}

const CHAT_REPLIES: Record<string, ChatReply> = {
  'text and three tool calls: a good one, one not JSON, one to no such tool': {
    text: 'Writing both lines now.',
    toolCalls: [
      { name: 'board_write', args: { line: 'b' }, id: 'call_good' },
      { name: 'board_write', args: '{"line": "b"', id: 'call_cut' },
      { name: 'deploy', args: { to: 'prod' }, id: 'call_unknown' },
    ],
  },
  'text cut at the output limit, usage on the finish chunk': { text: 'A long answer that stops', finishReason: 'length', usageOn: 'finish-chunk' },
  'a stream of nothing but [DONE]': { bare: true },
};

/** Anthropic's Messages stream: text, a good tool call, one whose input is not JSON. */
const ANTHROPIC_FRAMES = [
  messageStart(),
  { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Writing it. ' } },
  { type: 'content_block_stop', index: 0 },
  { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'toolu_1', name: 'board_write', input: {} } },
  { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"line": "b"}' } },
  { type: 'content_block_stop', index: 1 },
  { type: 'content_block_start', index: 2, content_block: { type: 'tool_use', id: 'toolu_2', name: 'board_write', input: {} } },
  { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '{"line": ' } },
  { type: 'content_block_stop', index: 2 },
  { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 20 } },
  { type: 'message_stop' },
];

const CHAT_PROVIDERS: Record<string, (url: string) => ModelSpec> = {
  'openai-compatible': (url) => ({ provider: 'openai-compatible', model: 'loopback', baseURL: url }),
  openai: (url) => ({ provider: 'openai', model: 'loopback', baseURL: url, apiKey: 'sk-test', apiKeyVariable: 'OPENAI_API_KEY' }),
};

describe('streamModel over the providers’ real streams', () => {
  for (const [provider, specFor] of Object.entries(CHAT_PROVIDERS)) {
    for (const [name, reply] of Object.entries(CHAT_REPLIES)) {
      it(`${provider}: sends the request streamText sends and reads the parts it reads: ${name}`, async () => {
        const chat = await chatServer(reply);
        const model = await modelFor(specFor(chat.url));
        const viaSdk = await throughStreamText(model, chat.requests);
        const viaKernel = await throughStreamModel(model, chat.requests);
        expect(chat.requests).toHaveLength(2);
        expect(viaKernel.body).toEqual(viaSdk.body);
        expect(viaKernel.parts).toEqual(viaSdk.parts);
        expect(viaKernel.parts.length).toBeGreaterThan(0);
      });
    }
  }

  it('anthropic: sends the request streamText sends and reads the parts it reads', async () => {
    const anthropic = await startAnthropicServer(ANTHROPIC_FRAMES);
    servers.push(anthropic);
    const model = await modelFor({
      provider: 'anthropic',
      model: 'claude-test',
      baseURL: anthropic.url,
      apiKey: 'sk-test',
      apiKeyVariable: 'ANTHROPIC_API_KEY',
    });
    const viaSdk = await throughStreamText(model, anthropic.requests);
    const viaKernel = await throughStreamModel(model, anthropic.requests);
    expect(anthropic.requests).toHaveLength(2);
    expect(viaKernel.body).toEqual(viaSdk.body);
    expect(viaKernel.parts).toEqual(viaSdk.parts);
    expect(viaKernel.parts.filter((part) => part.type === 'tool-call').map((part) => part.invalid)).toEqual([false, true]);
  });

  it('sends each tool call with its arguments, as the model gave them, and each result with its call id', async () => {
    const chat = await chatServer({ text: 'Both set.' });
    await throughStreamModel(await modelFor(CHAT_PROVIDERS['openai-compatible'](chat.url)), chat.requests);
    const sent = chat.requests[0].body.messages;
    expect(sent.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool', 'tool', 'user']);
    expect(sent[2].tool_calls?.map((call) => call.function.arguments)).toEqual(['{"line":"a"}', '"{\\"line\\":"']);
    expect(sent.filter((message) => message.role === 'tool').map((message) => message.tool_call_id)).toEqual(['c1', 'c2']);
  });

  it('gives the tokens the server counted, wherever it put its usage', async () => {
    for (const usageOn of ['own-chunk', 'finish-chunk'] as const) {
      const chat = await chatServer({ text: 'Counted.', usageOn });
      const model = await modelFor(CHAT_PROVIDERS['openai-compatible'](chat.url));
      const parts: ModelStreamPart[] = [];
      for await (const part of streamModel({ model, system: 's', prompt: 'count', signal: new AbortController().signal, maxRetries: 0 })) parts.push(part);
      expect(parts.at(-1)).toEqual({ type: 'finish-step', finishReason: 'stop', rawFinishReason: 'stop', usage: { inputTokens: 11, outputTokens: 7 } });
    }
  });

  it('reports a tool call whose arguments are not JSON as invalid, with the parser’s reason and the raw text', async () => {
    const chat = await chatServer({ toolCalls: [{ name: 'board_write', args: '{"line": ', id: 'call_1' }] });
    const model = await modelFor(CHAT_PROVIDERS['openai-compatible'](chat.url));
    const calls: ModelStreamPart[] = [];
    for await (const part of streamModel({ model, system: 's', prompt: 'write', tools, signal: new AbortController().signal, maxRetries: 0 })) {
      if (part.type === 'tool-call') calls.push(part);
    }
    expect(calls).toEqual([
      { type: 'tool-call', toolCallId: 'call_1', toolName: 'board_write', input: '{"line": ', invalidReason: expect.stringMatching(/JSON/) },
    ]);
  });

  it('stops reading once the call is aborted, says so, and lets the server go', async () => {
    const chat = await chatServer({ text: 'one two three', hold: true });
    const model = await modelFor(CHAT_PROVIDERS['openai-compatible'](chat.url));
    const controller = new AbortController();
    const parts: ModelStreamPart[] = [];
    for await (const part of streamModel({ model, system: 's', prompt: 'talk', signal: controller.signal, maxRetries: 2 })) {
      parts.push(part);
      if (part.type === 'text-delta') controller.abort();
    }
    expect(parts.map((part) => part.type)).toEqual(['text-start', 'text-delta', 'abort']);
    expect(chat.requests).toHaveLength(1);
  });
});

describe('streamModel retries what the provider marks retryable', () => {
  it('waits what the server asks in retry-after-ms and retry-after, then streams the answer', async () => {
    const chat = await chatServer([
      { status: 503, errorHeaders: { 'retry-after-ms': '250' } },
      { status: 429, errorHeaders: { 'retry-after': '3' } },
      { text: 'Third time.' },
    ]);
    const model = await modelFor(CHAT_PROVIDERS['openai-compatible'](chat.url));
    const waits: number[] = [];
    const parts: ModelStreamPart[] = [];
    const retryWait = async (ms: number) => void waits.push(ms);
    for await (const part of streamModel({ model, system: 's', prompt: 'hello', signal: new AbortController().signal, maxRetries: 2, retryWait }))
      parts.push(part);
    expect(waits).toEqual([250, 3000]);
    expect(chat.requests).toHaveLength(3);
    expect(
      parts
        .filter((part) => part.type === 'text-delta')
        .map((part) => part.text)
        .join(''),
    ).toBe('Third time.');
  });

  it('backs off 2 s, then 4 s, without a retry-after, and after the last try says how many there were', async () => {
    const chat = await chatServer([
      { status: 500, errorHeaders: {} },
      { status: 500, errorHeaders: {} },
      { status: 500, errorHeaders: {}, errorMessage: 'still down' },
    ]);
    const spec = CHAT_PROVIDERS['openai-compatible'](chat.url);
    const model = await modelFor(spec);
    const waits: number[] = [];
    const retryWait = async (ms: number) => void waits.push(ms);
    const run = async () => {
      for await (const part of streamModel({ model, system: 's', prompt: 'hello', signal: new AbortController().signal, maxRetries: 2, retryWait })) void part;
    };
    const error: unknown = await run().then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(ModelRetriesError);
    expect((error as ModelRetriesError).errors).toHaveLength(3);
    expect(waits).toEqual([2000, 4000]);
    expect(describeModelError(error, spec)).toBe(`http://127.0.0.1:${new URL(chat.url).port} had a server error (HTTP 500) after 3 attempts: "still down"`);
  });

  it('does not retry a refusal that another try cannot mend, and throws it as the provider did', async () => {
    const chat = await chatServer([{ status: 400, errorMessage: 'bad tools' }, { text: 'never asked' }]);
    const model = await modelFor(CHAT_PROVIDERS['openai-compatible'](chat.url));
    const run = async () => {
      for await (const part of streamModel({
        model,
        system: 's',
        prompt: 'hello',
        signal: new AbortController().signal,
        maxRetries: 2,
        retryWait: async () => undefined,
      }))
        void part;
    };
    await expect(run()).rejects.toMatchObject({ statusCode: 400 });
    expect(chat.requests).toHaveLength(1);
  });

  it('gives up waiting for a retry the moment the call is aborted', async () => {
    const chat = await chatServer([{ status: 503, errorHeaders: { 'retry-after': '30' } }, { text: 'never asked' }]);
    const provider = await modelFor(CHAT_PROVIDERS['openai-compatible'](chat.url));
    const controller = new AbortController();
    // The provider's own model, aborted once its refusal is in and the wait for the retry has begun.
    const model: LanguageModelV3 = {
      specificationVersion: 'v3',
      provider: provider.provider,
      modelId: provider.modelId,
      supportedUrls: provider.supportedUrls,
      doGenerate: (options) => provider.doGenerate(options),
      doStream: async (options) => {
        try {
          return await provider.doStream(options);
        } catch (error) {
          setImmediate(() => controller.abort());
          throw error;
        }
      },
    };
    const run = async () => {
      for await (const part of streamModel({ model, system: 's', prompt: 'hello', signal: controller.signal, maxRetries: 2 })) void part;
    };
    await expect(run()).rejects.toMatchObject({ name: 'AbortError' });
    expect(chat.requests).toHaveLength(1);
  });
});
