import type { HostScope } from '../../kernel/host-scope.js';
import type { ServerConfig } from './config-schema.js';

/** The host scope key under which a host supplies MCP servers of its own (ACP: the editor's). */
export const SUPPLIED_SERVERS_KEY = 'mcp.servers';

function isServerConfig(value: unknown): value is ServerConfig {
  const entry = value as { name?: unknown; transport?: unknown } | null;
  return typeof entry?.name === 'string' && (entry.transport === 'stdio' || entry.transport === 'streamable-http' || entry.transport === 'sse');
}

/**
 * `.mcp.json`'s servers with those the host supplies: a supplied server replaces the file's of the
 * same name (the editor's settings are the person's newest word), and that is said once.
 */
export function withSuppliedServers(fromFile: readonly ServerConfig[], host: HostScope, warn: (message: string) => void): ServerConfig[] {
  const raw = host.supplied[SUPPLIED_SERVERS_KEY];
  const supplied = Array.isArray(raw) ? raw.filter(isServerConfig) : [];
  if (supplied.length === 0) return [...fromFile];
  const names = new Set(supplied.map((server) => server.name));
  const replaced = fromFile.filter((server) => names.has(server.name)).map((server) => server.name);
  if (replaced.length > 0) {
    warn(
      `the editor's MCP server${replaced.length === 1 ? '' : 's'} ${replaced.join(', ')} replace${replaced.length === 1 ? 's' : ''} the one${replaced.length === 1 ? '' : 's'} of the same name in .mcp.json`,
    );
  }
  return [...fromFile.filter((server) => !names.has(server.name)), ...supplied];
}
