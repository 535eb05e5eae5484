import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadAgent } from '../agent/load-agent.js';
import { formatDiagnostic } from '../agent/types.js';
import { EXIT, UsageError } from '../hosts/exit-codes.js';
import { requireExistingFolder } from '../hosts/open-conversation.js';
import { BUILTIN_AUGMENTS } from '../augments/registry.js';

/** `auggy mcp list`: each server started, described and stopped; exit 1 when one did not start. */
export async function mcpListCommand(dir: string, options: { json?: boolean }, write: (text: string) => void): Promise<number> {
  const agentDir = resolve(dir);
  requireExistingFolder(agentDir, dir);
  if (!existsSync(resolve(agentDir, 'agent.yaml'))) throw new UsageError(`${dir} has no agent.yaml; pass an agent folder (auggy mcp list <dir>)`);
  const loaded = await loadAgent(agentDir, BUILTIN_AUGMENTS);
  if (!loaded.agent) {
    const errors = loaded.diagnostics.filter((d) => d.severity === 'error').map(formatDiagnostic);
    throw new UsageError(`the agent folder has errors (run auggy validate):\n  ${errors.slice(0, 5).join('\n  ')}`);
  }
  if (!loaded.agent.augments.some((augment) => augment.type === 'mcp')) {
    throw new UsageError(`${dir} does not use MCP: add mcp under augments in agent.yaml and list servers in .mcp.json`);
  }
  const { probeServers } = await import('../augments/mcp/probe.js');
  const { reportLines } = await import('../augments/mcp/server-status.js');
  const { reports } = await probeServers(loaded.agent);
  write(options.json ? `${JSON.stringify({ servers: reports }, null, 2)}\n` : `${reportLines(reports).join('\n')}\n`);
  return reports.every((report) => report.status === 'connected') ? EXIT.ok : EXIT.failed;
}
