import { serverOfExposedTool } from '../../augments/mcp/tool-names.js';
import type { Conversation } from '../../kernel/conversation.js';

/** The MCP server a tool call goes to, from the servers the mcp augment reports; undefined for the agent's own tools. */
export function mcpServerOf(conversation: Conversation, toolName: string): string | undefined {
  if (!toolName.startsWith('mcp_')) return undefined;
  const report = conversation.snapshot().mcp as { servers?: { name?: unknown }[] } | undefined;
  const names = (report?.servers ?? []).flatMap((server) => (typeof server.name === 'string' ? [server.name] : []));
  return serverOfExposedTool(toolName, names);
}
