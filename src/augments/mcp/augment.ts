import { z } from 'zod';
import { readDotEnv } from '../../agent/dot-env.js';
import type { Diagnostic } from '../../agent/types.js';
import { createHostScope } from '../../kernel/host-scope.js';
import { configDiagnostics } from '../config-diagnostics.js';
import type { Augment, AugmentFactory, SlashCommand } from '../../kernel/augment.js';
import { APPROVAL_EVENT } from './approval.js';
import { DEFAULT_CONNECT_TIMEOUT_SECONDS, DEFAULT_TIMEOUT_SECONDS, MCP_CONFIG_FILE, connectTimeoutMsOf, targetOf, timeoutMsOf } from './config-schema.js';
import { answerElicitation } from './elicit.js';
import { envLookup } from './interpolate.js';
import { exposedTools, type ToolsContext } from './mcp-tools.js';
import { probeAugment } from './probe.js';
import { readMcpConfig } from './read-config.js';
import { answerSampling } from './sampling.js';
import { indicatorText, reportLines, reportOf } from './server-status.js';
import { ServerPool } from './server-pool.js';
import { withSuppliedServers } from './supplied-servers.js';

export const STATUS_EVENT = 'mcp.status';

const configSchema = z.object({}).strict();

const SUMMARY =
  "Offers the tools of the MCP servers in .mcp.json as mcp_<server>_<tool>; a server's form goes to the person one question per field, " +
  'tools that need a yes ask for it, and where nobody is there both get no answer at once.';

/** Tools the person said "always" to, read back from the session so a resumed chat keeps them. */
function alwaysFromSession(entries: readonly { kind: string; event?: { type: string; name?: string; value?: unknown } }[]): Set<string> {
  const names = new Set<string>();
  for (const entry of entries) {
    const event = entry.event;
    if (entry.kind !== 'event' || event?.type !== 'CUSTOM' || event.name !== APPROVAL_EVENT) continue;
    const value = event.value as { toolName?: unknown; always?: unknown };
    if (value.always === true && typeof value.toolName === 'string') names.add(value.toolName);
  }
  return names;
}

function mcpCommand(pool: ServerPool): SlashCommand {
  return {
    name: 'mcp',
    summary: 'the MCP servers: transport, status and tools',
    duringTurn: true,
    run: () => ({ lines: reportLines(pool.connections.map(reportOf)) }),
  };
}

export const mcpAugment: AugmentFactory = {
  type: 'mcp',
  summary: SUMMARY,
  skill: 'mcp',
  rootTemplates: { [MCP_CONFIG_FILE]: 'mcp/mcp.json' },
  validateConfig(config, file, agentDir) {
    const diagnostics: Diagnostic[] = configDiagnostics(configSchema, config, file).map((d) => ({
      ...d,
      severity: 'warning' as const,
      message: `${d.message}; the servers and their settings live in ${MCP_CONFIG_FILE} at the agent root`,
    }));
    const read = readMcpConfig(agentDir, envLookup(readDotEnv(agentDir).env));
    if (!read.found) {
      diagnostics.push({
        severity: 'warning',
        file: MCP_CONFIG_FILE,
        message: `is missing, so the mcp augment has no servers; write one with an "mcpServers" object (auggy create --augment mcp shows the shape)`,
      });
    }
    return [...diagnostics, ...read.diagnostics];
  },
  describe(agent) {
    const read = readMcpConfig(agent.dir);
    const rows = [
      { label: 'Status', value: 'on (opt-in: listed in agent.yaml augments)' },
      { label: 'Config', value: `${MCP_CONFIG_FILE} (${read.servers.length} server${read.servers.length === 1 ? '' : 's'})` },
      ...read.servers.map((server) => {
        const policy = server.policy;
        const notes = [
          `timeout ${timeoutMsOf(policy) / 1000} s`,
          `start within ${connectTimeoutMsOf(policy) / 1000} s`,
          policy.confirmTools?.length ? `ask first: ${policy.confirmTools.join(', ')}` : undefined,
          policy.allowedTools ? `only: ${policy.allowedTools.join(', ')}` : undefined,
          policy.blockedTools?.length ? `hidden: ${policy.blockedTools.join(', ')}` : undefined,
          policy.allowSampling ? "may use the agent's model (after a yes)" : undefined,
        ].filter(Boolean);
        return { label: `Server ${server.name}`, value: `${server.transport} ${targetOf(server)} · ${notes.join(' · ')}` };
      }),
      { label: 'Tool names', value: 'mcp_<server>_<tool>' },
      { label: 'Approval', value: 'confirmTools and tools marked destructiveHint ask the person first: yes / no / always for this session' },
      { label: 'Nobody there', value: `--print, serve and /away: forms are canceled, approvals refused (unless --allow-tool) at once` },
      {
        label: 'Defaults',
        value: `timeoutSeconds ${DEFAULT_TIMEOUT_SECONDS}; connectTimeoutSeconds ${DEFAULT_CONNECT_TIMEOUT_SECONDS} (then not waited for again); sampling refused unless allowSampling`,
      },
    ];
    return { id: 'mcp', type: 'mcp', tools: [], behavior: SUMMARY, rows };
  },
  probe: (agent) => probeAugment(agent),
  create(setup): Augment {
    const { agent, session } = setup;
    const host = setup.host ?? createHostScope();
    const lookup = envLookup(agent.env);
    const pool = host.obtain(`mcp:${agent.dir}`, () => {
      const read = readMcpConfig(agent.dir, lookup);
      return new ServerPool(withSuppliedServers(read.servers, host, setup.warn), lookup, agent.dir, {
        elicit: (server, params, seat, signal) => answerElicitation(server.name, params, seat, signal),
        sample: (server, params, seat, signal) => answerSampling(server, params, seat, signal),
      });
    });
    const context: ToolsContext = {
      pool,
      allowedTools: host.allowedTools,
      alwaysAllowed: alwaysFromSession(session.entries().entries),
      complete: setup.complete,
      progress: new Map(),
    };
    const news = pool.subscribe((server, note) => {
      if (note) setup.warn(note);
      // The status line redraws on events; this one says what changed.
      const connection = pool.connection(server.name);
      if (connection) setup.emit({ type: 'CUSTOM', name: STATUS_EVENT, value: reportOf(connection) });
    });
    // Servers start as the chat (or the first turn) opens, not when the first tool is called.
    void pool.ensureAll();
    const command = mcpCommand(pool);
    return {
      id: setup.augmentId,
      tools: () => exposedTools(context),
      promptBlock() {
        const down = pool.connections.filter((c) => c.state.kind === 'failed' || c.state.kind === 'exited');
        if (down.length === 0) return undefined;
        return `These MCP servers are unavailable right now, so their tools are missing or answer with an error: ${down
          .map((c) => `${c.config.name} (${c.state.kind === 'failed' || c.state.kind === 'exited' ? c.state.error : ''})`)
          .join('; ')}. If that blocks the task, tell the person.`;
      },
      commands: () => [command],
      indicator() {
        const running = [...context.progress.values()].at(-1);
        if (running)
          return `mcp ${running.toolName} ${running.total ? `${running.progress}/${running.total}` : running.progress}${running.message ? ` ${running.message}` : ''}`;
        return indicatorText(pool.connections.map(reportOf));
      },
      async onUserMessage() {
        news.begin();
        // A server that failed or died is started again; the turn sees the tools it has now.
        await pool.ensureAll();
        await pool.settled();
      },
      async afterBatch() {
        await pool.settled();
        return undefined;
      },
      afterTurn() {
        news.end();
      },
      onCleared() {
        news.close();
      },
      snapshot: () => ({
        mcp: {
          servers: pool.connections.map(reportOf).map(({ name, status, tools, error }) => ({ name, status, tools: tools.length, ...(error ? { error } : {}) })),
        },
      }),
    };
  },
};
