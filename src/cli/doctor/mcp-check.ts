import type { LoadedAgent } from '../../agent/types.js';
import type { CheckResult } from './check-result.js';

/** Each MCP server started, its tools listed, and stopped again: one result per server. */
export async function mcpChecks(agent: LoadedAgent): Promise<CheckResult[]> {
  if (!agent.augments.some((augment) => augment.type === 'mcp')) {
    return [{ name: 'mcp', status: 'skip', message: 'no MCP servers: the mcp augment is not in agent.yaml' }];
  }
  const { probeServers } = await import('../../augments/mcp/probe.js');
  const { reports } = await probeServers(agent);
  if (reports.length === 0) return [{ name: 'mcp', status: 'warn', message: 'the mcp augment is on but .mcp.json lists no server that can start' }];
  return reports.map((report): CheckResult => {
    const name = `mcp ${report.name}`;
    const details = { server: report.name, transport: report.transport, tools: report.tools.length };
    if (report.status === 'connected') {
      return { name, status: 'ok', message: `${report.name} started (${report.transport}): ${report.tools.length} tools`, details };
    }
    return { name, status: 'fail', message: `${report.name} did not start: ${report.error ?? report.status}`, details };
  });
}
