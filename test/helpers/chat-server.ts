import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

/** What the loopback server answers to one request. */
export interface ChatReply {
  text?: string;
  toolCalls?: { name: string; args: Record<string, unknown> | string; id?: string }[];
  /** Answer with this HTTP status and an error body instead of a stream. */
  status?: number;
  /** Stream this many chunks, then destroy the connection (a stream cut off midway). */
  dropAfterChunks?: number;
  /** Keep the stream open after the first text chunk until `release()` or the client goes away. */
  hold?: boolean;
  /** Pause before each chunk. */
  chunkDelayMs?: number;
  /** Accept the request and never answer: no status line, no byte, until the client gives up. */
  silent?: boolean;
  /** Stream this many chunks, then send nothing more while keeping the connection open. */
  stallAfterChunks?: number;
  /** The finish_reason of the last choice chunk (`stop` or `tool_calls` by default). */
  finishReason?: 'stop' | 'length' | 'tool_calls' | 'content_filter';
  /** Only `data: [DONE]`: a stream with no chunk at all. */
  bare?: boolean;
  /** With `status`: the server's own message in its error body. */
  errorMessage?: string;
  /**
   * With `status`: the response's headers beside the content type, such as `retry-after` or
   * `retry-after-ms`. By default `retry-after-ms: 10`, so the client's retries come at once.
   */
  errorHeaders?: Record<string, string>;
  /**
   * The body shape of an error, as each server writes it: llama.cpp's and OpenAI's
   * `{"error": {"code", "message", "type"}}` (default), older vLLM's `{"object": "error", ...}`,
   * Ollama's native `{"error": "..."}`, or plain text.
   */
  errorShape?: 'llama.cpp' | 'vllm' | 'ollama' | 'text';
  /**
   * Where usage goes: a chunk of its own with no choices after the finish chunk, as vLLM and the
   * OpenAI API send it (default), or on the finish chunk itself, as llama-server does.
   */
  usageOn?: 'own-chunk' | 'finish-chunk';
}

export interface ReceivedRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: {
    model: string;
    stream?: boolean;
    messages: { role: string; content: unknown; tool_calls?: { id: string; function: { name: string; arguments: string } }[]; tool_call_id?: string }[];
    tools?: { type: string; function: { name: string; description?: string; parameters: unknown } }[];
    [key: string]: unknown;
  };
}

export interface ChatServer {
  /** Base URL ending in /v1, for --base-url. */
  url: string;
  requests: ReceivedRequest[];
  /** Lets a held stream finish. */
  release(): void;
  /** Resolves once a request has arrived and its stream is being held open. */
  held(): Promise<void>;
  close(): Promise<void>;
}

/** The replies in order, or one worked out from each request and its index. */
export type ReplySource = ChatReply[] | ((request: ReceivedRequest, index: number) => ChatReply);

/** Whose words the server refuses an over-long request in: each as that server writes them (see contextRefusal). */
export type OverflowShape = 'openai' | 'llama.cpp' | 'vllm' | 'vllm-old' | 'ollama' | 'ollama-native';

/** Every shape, for tests that go through each server's words. */
export const OVERFLOW_SHAPES: readonly OverflowShape[] = ['openai', 'llama.cpp', 'vllm', 'vllm-old', 'ollama', 'ollama-native'];

/**
 * The HTTP status each server refuses with: 400 everywhere, but Ollama's server answered 500 with
 * its runner's words (`{"error": "..."}`) before it passed the runner's 400 through.
 */
export function contextRefusalStatus(shape: OverflowShape): number {
  return shape === 'ollama-native' ? 500 : 400;
}

export interface ChatServerOptions {
  /**
   * The model's window: a request over this many tokens (its messages and tools as JSON, four
   * characters to a token) is refused with `overflowShape`'s real error body, and the usage of
   * every answered request reports its prompt tokens counted the same way.
   */
  contextTokens?: number;
  overflowShape?: OverflowShape;
  /**
   * A model without vision (llama.cpp started without --mmproj, a text-only vLLM model): a request
   * whose user message carries an `image_url` part is refused with vLLM's HTTP 400.
   */
  textOnly?: boolean;
}

type UserContentPart = { type?: unknown; text?: unknown; image_url?: { url?: unknown } };

/**
 * Why a message's content is not what OpenAI-compatible servers take, as llama.cpp checks it: a
 * string, or parts each `{"type": "text", "text"}` or `{"type": "image_url", "image_url": {"url"}}`
 * with a data: or http(s) URL. Undefined when it is.
 */
function contentProblem(content: unknown): string | undefined {
  if (typeof content === 'string' || content === null || content === undefined) return undefined;
  if (!Array.isArray(content)) return 'content must be a string or an array of parts';
  for (const part of content as UserContentPart[]) {
    if (part.type === 'text' && typeof part.text === 'string') continue;
    if (part.type === 'image_url' && typeof part.image_url?.url === 'string' && /^(data:image\/[a-z+.-]+;base64,|https?:\/\/)/.test(part.image_url.url))
      continue;
    return `unsupported content[].type: ${JSON.stringify(part.type)}`;
  }
  return undefined;
}

function carriesImage(body: ReceivedRequest['body']): boolean {
  return body.messages.some((message) => Array.isArray(message.content) && (message.content as UserContentPart[]).some((part) => part.type === 'image_url'));
}

/** A request's prompt tokens as this server counts them: its messages and tools as JSON, four characters each. */
export function promptTokensOf(body: ReceivedRequest['body']): number {
  return Math.ceil(JSON.stringify({ messages: body.messages, tools: body.tools ?? [] }).length / 4);
}

/**
 * The body each server sends when the prompt does not fit, from their code: OpenAI's
 * `context_length_exceeded`, llama-server's `exceed_context_size_error` (tools/server, with
 * n_prompt_tokens and n_ctx), vLLM's serving_engine check (OpenAI's error envelope since 0.6,
 * the bare `{"object": "error"}` one before), Ollama's runner `errorInputTooLong` ("the input
 * length exceeds the context length", sent when the request asks it not to truncate) in its
 * OpenAI-compatible envelope on /v1 (`code: null`), or bare as its native API and older servers
 * write it.
 */
export function contextRefusal(shape: OverflowShape, tokens: number, limit: number): string {
  switch (shape) {
    case 'openai':
      return JSON.stringify({
        error: {
          message: `This model's maximum context length is ${limit} tokens. However, your messages resulted in ${tokens} tokens. Please reduce the length of the messages.`,
          type: 'invalid_request_error',
          param: 'messages',
          code: 'context_length_exceeded',
        },
      });
    case 'llama.cpp':
      return JSON.stringify({
        error: {
          code: 400,
          message: `request (${tokens} tokens) exceeds the available context size (${limit} tokens), try increasing it`,
          type: 'exceed_context_size_error',
          n_prompt_tokens: tokens,
          n_ctx: limit,
        },
      });
    case 'vllm':
      return JSON.stringify({
        error: {
          message: `This model's maximum context length is ${limit} tokens. However, your request has ${tokens} input tokens. Please reduce the length of the input messages. None`,
          type: 'BadRequestError',
          param: null,
          code: 400,
        },
      });
    case 'vllm-old':
      return JSON.stringify({
        object: 'error',
        message: `This model's maximum context length is ${limit} tokens. However, you requested ${tokens} tokens (${tokens} in the messages, 0 in the completion). Please reduce the length of the messages or completion.`,
        type: 'BadRequestError',
        param: null,
        code: 400,
      });
    case 'ollama':
      return JSON.stringify({ error: { message: 'the input length exceeds the context length', type: 'invalid_request_error', param: null, code: null } });
    case 'ollama-native':
      return JSON.stringify({ error: 'the input length exceeds the context length' });
  }
}

function sse(res: ServerResponse, data: unknown): void {
  res.write(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
}

function chunk(delta: Record<string, unknown>, finishReason: string | null = null) {
  return {
    id: 'chatcmpl-loopback',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'loopback',
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  };
}

const USAGE = { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 };

function errorBody(reply: ChatReply): { type: string; body: string } {
  const status = reply.status ?? 500;
  const message = reply.errorMessage ?? `loopback error ${status}`;
  const type = status >= 500 ? 'server_error' : status === 401 ? 'authentication_error' : 'invalid_request_error';
  switch (reply.errorShape ?? 'llama.cpp') {
    case 'llama.cpp':
      return { type: 'application/json', body: JSON.stringify({ error: { code: status, message, type } }) };
    case 'vllm':
      return { type: 'application/json', body: JSON.stringify({ object: 'error', message, type: 'BadRequestError', param: null, code: status }) };
    case 'ollama':
      return { type: 'application/json', body: JSON.stringify({ error: message }) };
    case 'text':
      return { type: 'text/plain', body: message };
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A loopback server speaking the OpenAI Chat Completions wire format (streaming, with tool
 * calls), recording every request so tests can assert on what the client really sent.
 */
export async function startChatServer(replies: ReplySource, options: ChatServerOptions = {}): Promise<ChatServer> {
  const requests: ReceivedRequest[] = [];
  let releaseHeld: (() => void) | undefined;
  let heldWaiters: (() => void)[] = [];
  const server = createServer(async (req, res) => {
    const raw = await new Promise<string>((resolve) => {
      let data = '';
      req.on('data', (c: Buffer) => (data += c.toString('utf8')));
      req.on('end', () => resolve(data));
    });
    const request: ReceivedRequest = { path: req.url ?? '', headers: req.headers, body: JSON.parse(raw || '{}') as ReceivedRequest['body'] };
    const index = requests.length;
    requests.push(request);
    const malformed = request.body.messages?.map((message) => contentProblem(message.content)).find((problem) => problem !== undefined);
    if (malformed !== undefined) {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 400, message: malformed, type: 'invalid_request_error' } }));
      return;
    }
    if (options.textOnly && carriesImage(request.body)) {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'error', message: `${request.body.model} is not a multimodal model`, type: 'BadRequestError', param: null, code: 400 }));
      return;
    }
    const promptTokens = promptTokensOf(request.body);
    if (options.contextTokens !== undefined && promptTokens > options.contextTokens) {
      const shape = options.overflowShape ?? 'openai';
      // A 500 is retried by the client: no wait between the tries.
      res.writeHead(contextRefusalStatus(shape), { 'content-type': 'application/json', 'retry-after-ms': '10' });
      res.end(contextRefusal(shape, promptTokens, options.contextTokens));
      return;
    }
    const usage = options.contextTokens !== undefined ? { prompt_tokens: promptTokens, completion_tokens: 7, total_tokens: promptTokens + 7 } : USAGE;
    const reply = typeof replies === 'function' ? replies(request, index) : (replies[index] ?? { text: 'no more replies scripted' });
    if (reply.status && reply.status !== 200) {
      const { type, body } = errorBody(reply);
      res.writeHead(reply.status, { 'content-type': type, ...(reply.errorHeaders ?? { 'retry-after-ms': '10' }) });
      res.end(body);
      return;
    }
    // The connection stays open, unanswered, until the client gives up or the server closes.
    if (reply.silent) return;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.flushHeaders();
    if (reply.bare) {
      sse(res, '[DONE]');
      res.end();
      return;
    }
    const chunks: unknown[] = [chunk({ role: 'assistant', content: '' })];
    for (const word of reply.text?.match(/\S+\s*|\s+/g) ?? []) chunks.push(chunk({ content: word }));
    (reply.toolCalls ?? []).forEach((call, i) => {
      const args = typeof call.args === 'string' ? call.args : JSON.stringify(call.args);
      chunks.push(chunk({ tool_calls: [{ index: i, id: call.id ?? `call_${index}_${i}`, type: 'function', function: { name: call.name, arguments: '' } }] }));
      chunks.push(chunk({ tool_calls: [{ index: i, function: { arguments: args } }] }));
    });
    const finish = chunk({}, reply.finishReason ?? (reply.toolCalls?.length ? 'tool_calls' : 'stop'));
    if (reply.usageOn === 'finish-chunk') chunks.push({ ...finish, usage });
    else chunks.push(finish, { id: 'chatcmpl-loopback', object: 'chat.completion.chunk', created: 1, model: 'loopback', choices: [], usage });
    let sent = 0;
    for (const c of chunks) {
      if (reply.stallAfterChunks !== undefined && sent >= reply.stallAfterChunks) return;
      if (reply.dropAfterChunks !== undefined && sent >= reply.dropAfterChunks) {
        // Let the chunks so far reach the client, then cut the connection mid-stream.
        await sleep(50);
        res.socket?.destroy();
        return;
      }
      if (reply.chunkDelayMs) await sleep(reply.chunkDelayMs);
      sse(res, c);
      sent++;
      if (reply.hold && sent === 2) {
        await new Promise<void>((resolve) => {
          releaseHeld = resolve;
          res.on('close', () => resolve());
          heldWaiters.forEach((w) => w());
          heldWaiters = [];
        });
        if (res.destroyed || res.writableEnded) return;
      }
    }
    sse(res, '[DONE]');
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    release: () => releaseHeld?.(),
    held: () => new Promise<void>((resolve) => (releaseHeld ? resolve() : heldWaiters.push(resolve))),
    close: () =>
      new Promise<void>((resolve) => {
        releaseHeld?.();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Loopback chat servers for one test file, each closed after the test that started it (the
 * afterEach is registered here, so call this at a file's top level). Every server a test starts is
 * closed, not only the last, so none outlives its test to hold a port or a client's stream open.
 */
export function chatServersPerTest(): (replies: ReplySource, options?: ChatServerOptions) => Promise<ChatServer> {
  let started: ChatServer[] = [];
  afterEach(async () => {
    const closing = started;
    started = [];
    await Promise.all(closing.map((server) => server.close()));
  });
  return async (replies, options) => {
    const server = await startChatServer(replies, options);
    started.push(server);
    return server;
  };
}
