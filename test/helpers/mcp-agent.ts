import { join } from 'node:path';
import type { ChatReply, ReceivedRequest } from './chat-server.js';
import { makeAgentFolder } from './agent-fixture.js';
import { everythingStdio, filesystemStdio } from './mcp-servers.js';
import { tempDir } from './temp-dir.js';

/** An agent folder with the mcp augment: server-everything (through a recording tap) and filesystem. */
export function mcpAgentFolder(options: { policy?: Record<string, unknown>; augments?: string[]; files?: Record<string, string> } = {}): {
  dir: string;
  tap: string;
  files: string;
} {
  const files = tempDir('auggy-files-');
  const tap = join(tempDir('auggy-tap-'), 'everything.log');
  const dir = makeAgentFolder({
    augments: options.augments ?? ['turnControl', 'mcp'],
    files: {
      '.mcp.json': JSON.stringify(
        {
          mcpServers: { everything: everythingStdio(tap), files: filesystemStdio(files) },
          auggy: { servers: { everything: { confirmTools: ['get-sum'], ...options.policy } } },
        },
        null,
        2,
      ),
      ...options.files,
    },
  });
  return { dir, tap, files };
}

export function lastUserText(request: ReceivedRequest): string {
  const last = request.body.messages.filter((m) => m.role === 'user').at(-1);
  return typeof last?.content === 'string' ? last.content : '';
}

/** The tool results the model was sent in this request, in order. */
export function toolResults(request: ReceivedRequest): string[] {
  return request.body.messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
}

/**
 * A model that calls the MCP tool the person's message names (`call mcp_x {"a":1}`), then
 * answers with what the tool returned.
 */
export function callingModel(request: ReceivedRequest): ChatReply {
  const last = request.body.messages.at(-1);
  if (last?.role === 'tool') return { text: `The tool said: ${String(last.content).slice(0, 200)}` };
  const match = /call (\S+)(?: (.*))?$/.exec(lastUserText(request));
  if (!match) return { text: 'Nothing to call.' };
  return { toolCalls: [{ name: match[1], args: match[2] ? (JSON.parse(match[2]) as Record<string, unknown>) : {} }] };
}
