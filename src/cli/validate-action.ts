import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadAgent } from '../agent/load-agent.js';
import { formatDiagnostic, type Diagnostic, type LoadedAgent } from '../agent/types.js';
import { EXIT, UsageError } from '../hosts/exit-codes.js';
import { requireExistingFolder } from '../hosts/open-conversation.js';
import { BUILTIN_AUGMENTS } from '../augments/registry.js';
import { loadSelfPlayConfig } from '../hosts/test/scenario/self-play-config.js';

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** `2 errors, 1 warning in ./demo` or `./demo: no problems found`. */
export function summaryLine(dir: string, diagnostics: readonly Diagnostic[]): string {
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = diagnostics.length - errors;
  if (diagnostics.length === 0) return `${dir}: no problems found`;
  return `${dir}: ${plural(errors, 'error')}, ${plural(warnings, 'warning')}`;
}

/** Not being an agent folder at all is a usage mistake, not a finding about a folder. */
export function requireAgentFolder(dir: string, command: string): string {
  const agentDir = resolve(dir);
  requireExistingFolder(agentDir, dir);
  if (!statSync(agentDir).isDirectory()) {
    throw new UsageError(`${dir} is not a folder; pass an agent folder (auggy ${command} <dir>)`);
  }
  if (!existsSync(resolve(agentDir, 'agent.yaml'))) {
    throw new UsageError(`${dir} has no agent.yaml; pass an agent folder, or create one with: auggy create <name>`);
  }
  return agentDir;
}

/**
 * What validate finds in a folder: the loader's findings and self-play.yaml's, then (with `connect`, on a folder that
 * loads) what the augments' probes find outside it, such as an MCP server's tool list.
 */
export async function folderFindings(agentDir: string, connect: boolean): Promise<{ agent?: LoadedAgent; diagnostics: Diagnostic[] }> {
  const loaded = await loadAgent(agentDir, BUILTIN_AUGMENTS);
  // self-play.yaml is only read by `auggy test`, but it is the folder's file: a wrong role should
  // show here, before a suite stops on it.
  const selfPlay = loadSelfPlayConfig(agentDir);
  const diagnostics = [...loaded.diagnostics, ...(selfPlay.ok ? [] : selfPlay.diagnostics)];
  if (loaded.agent && connect) {
    const { probeAugments, unprovidedTools } = await import('../augments/probe-augments.js');
    const probes = await probeAugments(loaded.agent);
    for (const probe of probes.values()) diagnostics.push(...probe.diagnostics);
    diagnostics.push(...unprovidedTools(loaded.agent, probes));
  }
  return { agent: loaded.agent, diagnostics };
}

/** `auggy validate`: every finding, then a summary; exit 1 when any is an error. */
export async function validateCommand(dir: string, options: { json?: boolean; connect?: boolean }, write: (text: string) => void): Promise<number> {
  const agentDir = requireAgentFolder(dir, 'validate');
  const { diagnostics } = await folderFindings(agentDir, options.connect !== false);
  if (options.json) {
    write(`${JSON.stringify(diagnostics, null, 2)}\n`);
  } else {
    const lines = diagnostics.map(formatDiagnostic);
    write(`${[...lines, summaryLine(dir, diagnostics)].join('\n')}\n`);
  }
  return diagnostics.some((d) => d.severity === 'error') ? EXIT.failed : EXIT.ok;
}
