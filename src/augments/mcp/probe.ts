import type { Diagnostic } from '../../agent/types.js';
import type { LoadedAgent } from '../../agent/types.js';
import type { AugmentProbe } from '../../kernel/augment.js';
import { MCP_CONFIG_FILE } from './config-schema.js';
import { envLookup } from './interpolate.js';
import { readMcpConfig } from './read-config.js';
import { reportOf, type ServerReport } from './server-status.js';
import { ServerPool } from './server-pool.js';
import { exposedNamesFor } from './mcp-tools.js';

const NOBODY_TO_ASK = new Error('auggy is only listing tools; nobody answers questions now');

/** Starts every server of the folder, lists its tools, and stops them again. */
export async function probeServers(agent: LoadedAgent): Promise<{ reports: ServerReport[]; diagnostics: Diagnostic[] }> {
  const lookup = envLookup(agent.env);
  const read = readMcpConfig(agent.dir, lookup);
  const pool = new ServerPool(read.servers, lookup, agent.dir, {
    elicit: async () => ({ action: 'cancel' }),
    sample: async () => {
      throw NOBODY_TO_ASK;
    },
  });
  try {
    await pool.ensureAll();
    const reports = pool.connections.map(reportOf);
    const diagnostics: Diagnostic[] = [];
    for (const connection of pool.connections) {
      const { config, state } = connection;
      if (state.kind !== 'connected') {
        diagnostics.push({
          severity: 'warning',
          file: MCP_CONFIG_FILE,
          field: `mcpServers.${config.name}`,
          message: `could not be started to list its tools: ${state.kind === 'failed' ? state.error : state.kind}`,
        });
        continue;
      }
      const offered = new Set(state.tools.map((tool) => tool.name));
      const names = exposedNamesFor(connection);
      const exposed = new Set(names.values());
      for (const key of ['allowedTools', 'blockedTools', 'confirmTools'] as const) {
        for (const name of config.policy[key] ?? []) {
          if (offered.has(name) || exposed.has(name)) continue;
          diagnostics.push({
            severity: 'warning',
            file: MCP_CONFIG_FILE,
            field: `auggy.servers.${config.name}.${key}`,
            message: `"${name}" names no tool of ${config.name}; it offers ${[...offered].join(', ') || 'none'}`,
          });
        }
      }
    }
    for (const report of reports) {
      for (const { tool, exposed } of report.shortened) {
        diagnostics.push({
          severity: 'warning',
          file: MCP_CONFIG_FILE,
          field: `mcpServers.${report.name}`,
          message: `tool "${tool}" is offered to the model as ${exposed} (providers take names of at most 64 letters, digits and _); skills should name it so`,
        });
      }
    }
    return { reports, diagnostics };
  } finally {
    await pool.close();
  }
}

/** The augment's probe for admin and validate. */
export async function probeAugment(agent: LoadedAgent): Promise<AugmentProbe> {
  const { reports, diagnostics } = await probeServers(agent);
  return {
    rows: reports.map((report) => ({
      label: `Now ${report.name}`,
      value: [
        `${report.status}${report.error ? `: ${report.error}` : ''}`,
        `${report.tools.length} tools`,
        report.confirm.length > 0 ? `ask first: ${report.confirm.join(', ')}` : undefined,
        report.shortened.length > 0 ? `shortened: ${report.shortened.map(({ tool, exposed }) => `${exposed} is ${tool}`).join(', ')}` : undefined,
      ]
        .filter(Boolean)
        .join(' · '),
    })),
    tools: reports.flatMap((report) => report.tools),
    diagnostics,
  };
}
