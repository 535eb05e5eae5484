import { z } from 'zod';

/** Where the servers are: the agent root, in the `mcpServers` shape other MCP clients share. */
export const MCP_CONFIG_FILE = '.mcp.json';

/** A server name becomes part of tool names (`mcp_<server>_<tool>`), so it stays plain. */
export const SERVER_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

export const DEFAULT_TIMEOUT_SECONDS = 60;
/**
 * How long a server may take to start and answer MCP's handshake and its tool list. Short: a
 * command that never speaks MCP (a typo'd script, `sleep`) must not hold every turn for a
 * minute. A server that npx downloads first may need more; connectTimeoutSeconds gives it.
 */
export const DEFAULT_CONNECT_TIMEOUT_SECONDS = 15;

const connectTimeoutSeconds = z
  .number()
  .positive('connectTimeoutSeconds must be more than 0')
  .max(600, 'connectTimeoutSeconds is at most 600 (ten minutes)')
  .optional();

/** JSON has no comments; a `$comment` key (JSON Schema's own) carries notes anywhere in the file. */
const comment = z.union([z.string(), z.array(z.string())]).optional();

const stringRecord = z.record(z.string(), z.string('must be a string; quote numbers and booleans'));

export const stdioServerSchema = z.object({
  $comment: comment,
  type: z.literal('stdio').optional(),
  command: z.string().trim().min(1, 'command must name the program that starts the server'),
  args: z.array(z.string('each argument must be a string')).optional(),
  env: stringRecord.optional(),
  cwd: z.string().optional(),
});

export const remoteServerSchema = z.object({
  $comment: comment,
  type: z.enum(['streamable-http', 'http', 'sse']),
  url: z.url({ protocol: /^https?$/, error: 'url must be an http:// or https:// address' }),
  headers: stringRecord.optional(),
});

export const serverPolicySchema = z.object({
  $comment: comment,
  allowedTools: z.array(z.string()).optional(),
  blockedTools: z.array(z.string()).optional(),
  confirmTools: z.array(z.string()).optional(),
  timeoutSeconds: z.number().positive('timeoutSeconds must be more than 0').max(86_400, 'timeoutSeconds is at most 86400 (a day)').optional(),
  /** How long starting the server and listing its tools may take; then it is given up on. */
  connectTimeoutSeconds,
  allowSampling: z.boolean().optional(),
  /** Folders the server is told it may work in (MCP roots), relative to the agent folder; default the agent folder. */
  roots: z.array(z.string('each root must be a folder path')).optional(),
  /** Real auggy's spelling of the timeout, in milliseconds. */
  timeoutMs: z.number().int().positive('timeoutMs must be more than 0').optional(),
});

/** The top-level `auggy` block's own settings: defaults for every server. */
export const globalPolicySchema = z.object({ connectTimeoutSeconds });

export type StdioServerConfig = z.infer<typeof stdioServerSchema>;
export type RemoteServerConfig = z.infer<typeof remoteServerSchema>;
export type ServerPolicy = z.infer<typeof serverPolicySchema>;

/** Keys each part of the file may hold; anything else is warned about and ignored. */
export const KNOWN_KEYS = {
  root: ['$comment', 'mcpServers', 'auggy'],
  auggy: ['$comment', 'servers', 'connectTimeoutSeconds'],
  stdio: ['$comment', 'type', 'transport', 'command', 'args', 'env', 'cwd', 'auggy'],
  remote: ['$comment', 'type', 'transport', 'url', 'headers', 'auggy'],
  policy: ['$comment', 'allowedTools', 'blockedTools', 'confirmTools', 'timeoutSeconds', 'connectTimeoutSeconds', 'timeoutMs', 'allowSampling', 'roots'],
} as const;

/**
 * Settings other auggy releases write (trust levels, cloud deploys, byte caps): a folder that
 * has them loads, and validate says they do nothing here.
 */
export const OTHER_RELEASE_POLICY_KEYS = [
  'cloud',
  'allowInsecureHttpWithCredentials',
  'allowedTrustLevels',
  'toolPolicies',
  'maxResultBytes',
  'maxSchemaBytes',
  'maxArgumentBytes',
  'maxDepth',
  'maxNodes',
  'maxTransportMessageBytes',
  'maxConcurrentCalls',
  'maxTools',
  'maxToolPages',
  'includeToolDescriptions',
];

export type TransportKind = 'stdio' | 'streamable-http' | 'sse';

/** One server as the augment runs it: its transport settled, its policy merged, variables not yet filled. */
export type ServerConfig =
  | { name: string; transport: 'stdio'; stdio: StdioServerConfig; policy: ServerPolicy }
  | { name: string; transport: 'streamable-http' | 'sse'; remote: RemoteServerConfig; policy: ServerPolicy };

export interface McpConfig {
  servers: ServerConfig[];
}

/** The transport a server entry asks for: `type` (or real auggy's `transport`), else command or url decides. */
export function transportOf(entry: Record<string, unknown>): TransportKind | 'unknown' {
  const raw = typeof entry.type === 'string' ? entry.type : typeof entry.transport === 'string' ? entry.transport : undefined;
  switch (raw) {
    case 'stdio':
      return 'stdio';
    case 'streamable-http':
    case 'streamableHttp':
    case 'http':
      return 'streamable-http';
    case 'sse':
      return 'sse';
    case undefined:
      if (typeof entry.command === 'string') return 'stdio';
      if (typeof entry.url === 'string') return 'streamable-http';
      return 'unknown';
    default:
      return 'unknown';
  }
}

export function timeoutMsOf(policy: ServerPolicy): number {
  if (policy.timeoutSeconds !== undefined) return policy.timeoutSeconds * 1000;
  if (policy.timeoutMs !== undefined) return policy.timeoutMs;
  return DEFAULT_TIMEOUT_SECONDS * 1000;
}

export function connectTimeoutMsOf(policy: ServerPolicy): number {
  return (policy.connectTimeoutSeconds ?? DEFAULT_CONNECT_TIMEOUT_SECONDS) * 1000;
}

/** The command or the url, variables unfilled (secrets stay out of what is shown). */
export function targetOf(server: ServerConfig): string {
  if (server.transport === 'stdio') return [server.stdio.command, ...(server.stdio.args ?? [])].join(' ');
  return server.remote.url;
}
