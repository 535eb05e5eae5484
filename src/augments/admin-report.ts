import type { LoadedAgent } from '../agent/types.js';
import { findAugmentFactory } from './registry.js';
import type { AdminSection } from './types.js';

export interface AdminReport {
  agent: { name: string; displayName: string; dir: string; model: string };
  augments: AdminSection[];
}

/** What each augment exposes, from the folder alone (no session is opened). */
export function buildAdminReport(agent: LoadedAgent): AdminReport {
  return {
    agent: { name: agent.yaml.name, displayName: agent.displayName, dir: agent.dir, model: `${agent.engine.provider}:${agent.engine.model}` },
    augments: agent.augments.flatMap((config) => {
      const factory = findAugmentFactory(config.type);
      return factory ? [factory.describe(agent, config.config)] : [];
    }),
  };
}

export function formatAdminReport(report: AdminReport): string {
  const lines = [`${report.agent.displayName} (${report.agent.model})`, ''];
  if (report.augments.length === 0) lines.push('No augments enabled.');
  for (const section of report.augments) {
    lines.push(`${section.id}${section.id === section.type ? '' : ` (${section.type})`}`);
    lines.push(`  Tools: ${section.tools.join(', ') || 'none'}`);
    lines.push(`  ${section.behavior}`);
    const width = Math.max(...section.rows.map((row) => row.label.length), 0);
    for (const row of section.rows) lines.push(`  ${row.label.padEnd(width)}  ${row.value}`);
    lines.push('');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}
