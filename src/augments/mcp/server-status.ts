import { targetOf } from './config-schema.js';
import { exposedNamesFor, isExposed } from './mcp-tools.js';
import type { ServerConnection, ServerState } from './server-connection.js';
import { shortenedNames } from './tool-names.js';

/** One server as `/mcp`, `auggy mcp list` and admin report it. */
export interface ServerReport {
  name: string;
  transport: string;
  /** The command or the url, variables unfilled (secrets stay out of the report). */
  target: string;
  status: 'connected' | 'failed' | 'exited' | 'connecting' | 'not started' | 'closed';
  error?: string;
  /** The names the model calls. */
  tools: string[];
  /** Tools the server offers that `.mcp.json` hides (allowedTools, blockedTools). */
  hidden: string[];
  confirm: string[];
  /** Tools whose name was cut to 64 characters (or told apart) with a short hash: the model calls `exposed`. */
  shortened: { tool: string; exposed: string }[];
}

function statusOf(state: ServerState): ServerReport['status'] {
  switch (state.kind) {
    case 'idle':
      return 'not started';
    case 'connected':
    case 'failed':
    case 'exited':
    case 'connecting':
    case 'closed':
      return state.kind;
  }
}

export function reportOf(connection: ServerConnection): ServerReport {
  const { config, state } = connection;
  const listed = connection.tools();
  const names = exposedNamesFor(connection);
  const nameOf = (tool: { name: string }) => names.get(tool.name) ?? tool.name;
  const shown = listed.filter((tool) => isExposed(config, tool, nameOf(tool)));
  return {
    name: config.name,
    transport: config.transport,
    target: targetOf(config),
    status: statusOf(state),
    ...(state.kind === 'failed' || state.kind === 'exited' ? { error: state.error } : {}),
    tools: shown.map(nameOf),
    hidden: listed.filter((tool) => !isExposed(config, tool, nameOf(tool))).map((tool) => tool.name),
    confirm: shown.filter((tool) => tool.annotations?.destructiveHint === true || config.policy.confirmTools?.includes(tool.name)).map(nameOf),
    shortened: shortenedNames(config.name, names).filter((entry) => shown.some((tool) => tool.name === entry.tool)),
  };
}

/** Lines for a person: one heading per server, its tools under it. */
export function reportLines(reports: readonly ServerReport[]): string[] {
  if (reports.length === 0) return ['no MCP servers in .mcp.json; add one under "mcpServers"'];
  const lines: string[] = [];
  for (const report of reports) {
    const state = report.error ? `${report.status}: ${report.error}` : report.status;
    lines.push(`${report.name}  ${report.transport}  ${state}  (${report.target})`);
    if (report.tools.length > 0) lines.push(`  tools: ${report.tools.join(', ')}`);
    if (report.confirm.length > 0) lines.push(`  ask first: ${report.confirm.join(', ')}`);
    if (report.hidden.length > 0) lines.push(`  hidden by .mcp.json: ${report.hidden.join(', ')}`);
    for (const { tool, exposed } of report.shortened) lines.push(`  shortened: ${exposed} is ${tool}`);
  }
  return lines;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** The status-line text: `mcp 2 servers · 14 tools`, what failed, or what is still starting. */
export function indicatorText(reports: readonly ServerReport[]): string | undefined {
  if (reports.length === 0) return undefined;
  if (reports.some((report) => report.status === 'connecting' || report.status === 'not started')) return 'mcp starting…';
  const up = reports.filter((report) => report.status === 'connected');
  const down = reports.filter((report) => report.status === 'failed' || report.status === 'exited');
  const tools = up.reduce((count, report) => count + report.tools.length, 0);
  const parts = [`mcp ${plural(up.length, 'server')}`, plural(tools, 'tool')];
  if (down.length > 0) parts.push(`${down.map((report) => report.name).join(', ')} ${down.length === 1 ? 'is' : 'are'} down`);
  return parts.join(' · ');
}
