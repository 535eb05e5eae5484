import { resolve } from 'node:path';
import { existsSync } from 'node:fs';
import { loadAgent } from '../agent/load-agent.js';
import { formatDiagnostic } from '../agent/types.js';
import { buildAdminReport, formatAdminReport } from '../augments/admin-report.js';
import { EXIT, UsageError } from '../hosts/exit-codes.js';
import { requireExistingFolder } from '../hosts/open-conversation.js';
import { BUILTIN_AUGMENTS } from '../augments/registry.js';

export async function adminCommand(dir: string, options: { json?: boolean }): Promise<number> {
  const agentDir = resolve(dir);
  requireExistingFolder(agentDir);
  if (!existsSync(resolve(agentDir, 'agent.yaml'))) throw new UsageError(`${agentDir} has no agent.yaml; pass an agent folder`);
  const loaded = await loadAgent(agentDir, BUILTIN_AUGMENTS);
  if (!loaded.agent) {
    const errors = loaded.diagnostics.filter((d) => d.severity === 'error').map(formatDiagnostic);
    throw new UsageError(`the agent folder has errors (run auggy validate):\n  ${errors.slice(0, 5).join('\n  ')}`);
  }
  const { probeAugments, withProbes } = await import('../augments/probe-augments.js');
  const report = withProbes(buildAdminReport(loaded.agent), await probeAugments(loaded.agent));
  process.stdout.write(options.json ? `${JSON.stringify(report, null, 2)}\n` : formatAdminReport(report));
  return EXIT.ok;
}
