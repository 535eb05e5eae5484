import type { LoadedAgent } from '../agent/types.js';
import { findAugmentFactory } from './registry.js';
import type { AdminSection } from '../kernel/augment.js';
import { buildSystemPrompt } from '../kernel/system-prompt.js';

export interface SystemPromptSize {
  /** identity.md and the skills as sent at every round, before the augments' own blocks. */
  characters: number;
  identity: number;
  skills: { id: string; characters: number }[];
}

export interface AdminReport {
  agent: { name: string; displayName: string; dir: string; model: string; creator?: string; maxTokens?: number; maxContextTokens?: number };
  systemPrompt: SystemPromptSize;
  augments: AdminSection[];
}

function promptSize(agent: LoadedAgent): SystemPromptSize {
  return {
    characters: buildSystemPrompt(agent.identity, agent.skills, []).length,
    identity: agent.identity.trim().length,
    // Each skill's share: its manifest line and its guidance block, as the prompt holds them.
    skills: agent.skills.map((skill) => ({ id: skill.id, characters: buildSystemPrompt('', [skill], []).length })),
  };
}

const count = (n: number) => n.toLocaleString('en-US');

/** What each augment exposes, from the folder alone (no session is opened). */
export function buildAdminReport(agent: LoadedAgent): AdminReport {
  return {
    agent: {
      name: agent.yaml.name,
      displayName: agent.displayName,
      dir: agent.dir,
      model: `${agent.engine.provider}:${agent.engine.model}`,
      ...(agent.yaml.creator?.displayName ? { creator: agent.yaml.creator.displayName } : {}),
      ...(agent.engine.maxTokens !== undefined ? { maxTokens: agent.engine.maxTokens } : {}),
      ...(agent.engine.maxContextTokens !== undefined ? { maxContextTokens: agent.engine.maxContextTokens } : {}),
    },
    systemPrompt: promptSize(agent),
    augments: agent.augments.flatMap((config) => {
      const factory = findAugmentFactory(config.type);
      return factory ? [factory.describe(agent, config.config)] : [];
    }),
  };
}

export function formatAdminReport(report: AdminReport): string {
  const { agent, systemPrompt } = report;
  const lines = [`${agent.displayName} (${agent.model})`];
  if (agent.creator) lines.push(`Creator: ${agent.creator}`);
  if (agent.maxTokens !== undefined || agent.maxContextTokens !== undefined) {
    const parts = [
      agent.maxTokens !== undefined ? `replies up to ${count(agent.maxTokens)} tokens` : '',
      agent.maxContextTokens !== undefined ? `context window ${count(agent.maxContextTokens)} tokens` : '',
    ];
    lines.push(`Engine: ${parts.filter((part) => part !== '').join(', ')}`);
  }
  const skills = systemPrompt.skills.map((skill) => `${skill.id} ${count(skill.characters)}`).join(', ');
  lines.push(
    `System prompt: ${count(systemPrompt.characters)} characters before augment blocks (identity ${count(systemPrompt.identity)}${skills ? `; skills: ${skills}` : '; no skills'})`,
    '',
  );
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
