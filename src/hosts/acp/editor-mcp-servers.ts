import type { McpServer } from '@agentclientprotocol/sdk';
import { SERVER_NAME, type ServerConfig } from '../../augments/mcp/config-schema.js';
import { SUPPLIED_SERVERS_KEY } from '../../augments/mcp/supplied-servers.js';
import { createHostScope, type HostScope } from '../../kernel/host-scope.js';

function pairs(list: readonly { name: string; value: string }[] | undefined): Record<string, string> {
  return Object.fromEntries((list ?? []).map((pair) => [pair.name, pair.value]));
}

/** An editor's MCP server as the mcp augment runs one; a name that cannot make tool names is left out. */
function serverConfig(server: McpServer, log: (line: string) => void): ServerConfig[] {
  if (!SERVER_NAME.test(server.name)) {
    log(`warning: the editor's MCP server "${server.name}" is left out: a server name is letters, digits, _ and - (it becomes part of tool names)`);
    return [];
  }
  if ('command' in server) {
    return [{ name: server.name, transport: 'stdio', stdio: { command: server.command, args: [...server.args], env: pairs(server.env) }, policy: {} }];
  }
  const transport = server.type === 'sse' ? 'sse' : 'streamable-http';
  return [{ name: server.name, transport, remote: { type: transport, url: server.url, headers: pairs(server.headers) }, policy: {} }];
}

/**
 * The scope of a session the editor gives MCP servers to: the folder's standing permissions, and
 * the editor's servers for the mcp augment to start beside `.mcp.json`'s. Undefined when there
 * is nothing to add (the session shares the folder's scope and its servers).
 */
export function editorServersScope(servers: readonly McpServer[], folderScope: HostScope | undefined, log: (line: string) => void): HostScope | undefined {
  const configs = servers.flatMap((server) => serverConfig(server, log));
  if (configs.length === 0) return undefined;
  return createHostScope({ allowedTools: folderScope?.allowedTools ?? [], supplied: { [SUPPLIED_SERVERS_KEY]: configs } });
}
