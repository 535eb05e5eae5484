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

/**
 * A loopback server speaking the Anthropic Messages streaming wire format: every request is
 * answered with these frames, each as an SSE event named by its type, and recorded.
 */
export async function startAnthropicServer(frames: readonly { type: string }[]): Promise<AnthropicServer> {
  const requests: AnthropicRequest[] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      requests.push({ path: req.url ?? '', body: JSON.parse(raw) as Record<string, unknown>, apiKey: req.headers['x-api-key'] as string | undefined });
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const frame of frames) res.write(`event: ${frame.type}\ndata: ${JSON.stringify(frame)}\n\n`);
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
