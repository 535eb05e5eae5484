import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startChatServer, type ChatReply, type ChatServer, type ReceivedRequest } from './chat-server.js';

type ReplySource = ChatReply[] | ((request: ReceivedRequest, index: number) => ChatReply);

interface StreamChunk {
  choices?: { delta?: { content?: string; tool_calls?: { index: number; id?: string; function?: { name?: string; arguments?: string } }[] }; finish_reason?: string | null }[];
  usage?: unknown;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let data = '';
    req.on('data', (chunk: Buffer) => (data += chunk.toString('utf8')));
    req.on('end', () => resolve(data));
  });
}

/** Folds a Chat Completions event stream into the one JSON body a non-streaming request expects. */
function completionFromStream(sse: string): Record<string, unknown> {
  let content = '';
  let finishReason: string | null = 'stop';
  let usage: unknown;
  const calls = new Map<number, { id: string; type: 'function'; function: { name: string; arguments: string } }>();
  for (const line of sse.split('\n')) {
    if (!line.startsWith('data: ') || line === 'data: [DONE]') continue;
    const chunk = JSON.parse(line.slice(6)) as StreamChunk;
    if (chunk.usage) usage = chunk.usage;
    for (const choice of chunk.choices ?? []) {
      content += choice.delta?.content ?? '';
      if (choice.finish_reason) finishReason = choice.finish_reason;
      for (const call of choice.delta?.tool_calls ?? []) {
        const entry = calls.get(call.index) ?? { id: call.id ?? `call_${call.index}`, type: 'function' as const, function: { name: '', arguments: '' } };
        entry.function.name += call.function?.name ?? '';
        entry.function.arguments += call.function?.arguments ?? '';
        calls.set(call.index, entry);
      }
    }
  }
  const message = { role: 'assistant', content: content === '' ? null : content, ...(calls.size > 0 ? { tool_calls: [...calls.values()] } : {}) };
  return { id: 'chatcmpl-loopback', object: 'chat.completion', created: 1, model: 'loopback', choices: [{ index: 0, message, finish_reason: finishReason }], usage };
}

/**
 * The loopback Chat Completions server, also answering non-streaming requests (what a tool-less
 * `generateText` completion sends, such as the userAsk evaluator). Streaming requests pass through
 * untouched; a non-streaming one is asked of the server as a stream and answered as one JSON body.
 * `requests` holds what clients really sent, `stream` flag included.
 */
export async function startCompletionServer(replies: ReplySource): Promise<ChatServer> {
  const inner = await startChatServer(replies);
  const requests: ReceivedRequest[] = [];
  const server = createServer(async (req, res) => {
    const raw = await readBody(req);
    const body = JSON.parse(raw || '{}') as ReceivedRequest['body'];
    requests.push({ path: req.url ?? '', headers: req.headers, body });
    const streaming = body.stream === true;
    const upstream = await fetch(`${inner.url.replace(/\/v1$/, '')}${req.url ?? ''}`, {
      method: req.method,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(streaming ? body : { ...body, stream: true }),
    });
    if (!streaming || upstream.status !== 200) {
      const text = await upstream.text();
      // The retry hint keeps client retries fast, as the chat server intends.
      const retryAfter = upstream.headers.get('retry-after-ms');
      res.writeHead(upstream.status, { 'content-type': 'application/json', ...(retryAfter ? { 'retry-after-ms': retryAfter } : {}) });
      res.end(upstream.status === 200 ? JSON.stringify(completionFromStream(text)) : text);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.flushHeaders();
    try {
      for await (const chunk of upstream.body ?? []) res.write(chunk);
    } catch {
      // The inner server cut the stream (dropAfterChunks): cut this one too.
      res.socket?.destroy();
      return;
    }
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    release: () => inner.release(),
    held: () => inner.held(),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await inner.close();
    },
  };
}
