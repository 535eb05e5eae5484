import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadAgent } from '../agent/load-agent.js';
import { formatDiagnostic, type Diagnostic } from '../agent/types.js';
import { EXIT, UsageError } from '../hosts/exit-codes.js';
import { requireExistingFolder } from '../hosts/open-conversation.js';
import { BUILTIN_AUGMENTS } from '../augments/registry.js';

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

/** `auggy validate`: every finding, then a summary; exit 1 when any is an error. */
export async function validateCommand(dir: string, options: { json?: boolean; connect?: boolean }, write: (text: string) => void): Promise<number> {
  const agentDir = resolve(dir);
  // Not being an agent folder at all is a usage mistake, not a finding about a folder.
  requireExistingFolder(agentDir, dir);
  if (!statSync(agentDir).isDirectory()) {
    throw new UsageError(`${dir} is not a folder; pass an agent folder (auggy validate <dir>)`);
  }
  if (!existsSync(resolve(agentDir, 'agent.yaml'))) {
    throw new UsageError(`${dir} has no agent.yaml; pass an agent folder, or create one with: auggy create <name>`);
  }
  const loaded = await loadAgent(agentDir, BUILTIN_AUGMENTS);
  const diagnostics = [...loaded.diagnostics];
  // Checks that need the outside world (an MCP server's tool list) run on a folder that loads.
  if (loaded.agent && options.connect !== false) {
    const { probeAugments, unprovidedTools } = await import('../augments/probe-augments.js');
    const probes = await probeAugments(loaded.agent);
    for (const probe of probes.values()) diagnostics.push(...probe.diagnostics);
    diagnostics.push(...unprovidedTools(loaded.agent, probes));
  }
  if (options.json) {
    write(`${JSON.stringify(diagnostics, null, 2)}\n`);
  } else {
    const lines = diagnostics.map(formatDiagnostic);
    write(`${[...lines, summaryLine(dir, diagnostics)].join('\n')}\n`);
  }
  return diagnostics.some((d) => d.severity === 'error') ? EXIT.failed : EXIT.ok;
}
