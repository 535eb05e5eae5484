import type { Diagnostic, LoadedAgent } from '../agent/types.js';
import { buildAdminReport, type AdminReport } from './admin-report.js';
import { findAugmentFactory } from './registry.js';
import type { AugmentProbe } from '../kernel/augment.js';

/** Every enabled augment's look beyond the folder (MCP servers started and stopped), by augment id. */
export async function probeAugments(agent: LoadedAgent): Promise<Map<string, AugmentProbe>> {
  const found = new Map<string, AugmentProbe>();
  for (const config of agent.augments) {
    const probe = findAugmentFactory(config.type)?.probe;
    if (probe) found.set(config.id, await probe(agent, config.config));
  }
  return found;
}

/** The admin report with what the probes saw: live tool names and a row per server. */
export function withProbes(report: AdminReport, probes: ReadonlyMap<string, AugmentProbe>): AdminReport {
  return {
    ...report,
    augments: report.augments.map((section) => {
      const probe = probes.get(section.id);
      return probe ? { ...section, tools: probe.tools, rows: [...section.rows, ...probe.rows] } : section;
    }),
  };
}

/** The tools an augment wants (a pack's prompt tools) that no augment offers, once the probes saw the live ones. */
export function unprovidedTools(agent: LoadedAgent, probes: ReadonlyMap<string, AugmentProbe>): Diagnostic[] {
  const offered = withProbes(buildAdminReport(agent), probes).augments.flatMap((section) => section.tools);
  return [...probes.values()].flatMap((probe) =>
    (probe.wantedTools ?? [])
      .filter((wanted) => !offered.some((name) => wanted.matches(name)))
      .map((wanted) => ({ severity: 'warning' as const, file: wanted.file, message: wanted.message })),
  );
}
