import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface AnthropicRequest {
  path: string;
  body: Record<string, unknown>;
  apiKey?: string;
}

export interface AnthropicServer {
  /** Base URL ending in /v1, for the provider's baseURL. */
  url: string;
  requests: AnthropicRequest[];
  close(): Promise<void>;
}

/** What the server answers one request with: stream frames, or an HTTP error with the API's body. */
export type AnthropicReply = { frames: readonly { type: string }[] } | { status: number; body: unknown };

/** The frame that opens every Messages stream, with the input tokens the API counted. */
export function messageStart(inputTokens = 12): { type: string; [field: string]: unknown } {
  return {
    type: 'message_start',
    message: {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-test',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: inputTokens, output_tokens: 1 },
    },
  };
}

/** The frames of a plain text reply, with the usage the API reports. */
export function textFrames(text: string, inputTokens = 12): { type: string; [field: string]: unknown }[] {
  return [
    messageStart(inputTokens),
    { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } },
    { type: 'content_block_stop', index: 0 },
    { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 5 } },
    { type: 'message_stop' },
  ];
}

/**
 * A loopback server speaking the Anthropic Messages streaming wire format: every request is
 * answered with these frames (or what the function says for it), each as an SSE event named by
 * its type, and recorded.
 */
export async function startAnthropicServer(
  frames: readonly { type: string }[] | ((request: AnthropicRequest, index: number) => AnthropicReply),
): Promise<AnthropicServer> {
  const requests: AnthropicRequest[] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      const request = { path: req.url ?? '', body: JSON.parse(raw) as Record<string, unknown>, apiKey: req.headers['x-api-key'] as string | undefined };
      requests.push(request);
      const reply = typeof frames === 'function' ? frames(request, requests.length - 1) : { frames };
      if ('status' in reply) {
        res.writeHead(reply.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(reply.body));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const frame of reply.frames) res.write(`event: ${frame.type}\ndata: ${JSON.stringify(frame)}\n\n`);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
