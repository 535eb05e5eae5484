import type { LoadedSkill } from '../agent/types.js';
import type { Augment } from './augment.js';

function skillsSection(skills: LoadedSkill[]): string | undefined {
  if (skills.length === 0) return undefined;
  const manifest = skills.map((skill) => `- ${skill.name}: ${skill.description}`).join('\n');
  // There is no file tool to open a skill later, so each skill's guidance travels with the manifest.
  const bodies = skills.map((skill) => `<skill name="${skill.name}">\n${skill.body.trim()}\n</skill>`).join('\n\n');
  return `# Skills\n\n${manifest}\n\n${bodies}`;
}

/** One `<augment id="...">` block per augment that has something to say: what travels beside the conversation. */
export function augmentBlocks(augments: readonly Augment[]): string[] {
  const blocks: string[] = [];
  for (const augment of augments) {
    const block = augment.promptBlock?.();
    if (block !== undefined && block.trim() !== '') blocks.push(`<augment id="${augment.id}">\n${block.trim()}\n</augment>`);
  }
  return blocks;
}

/** identity.md, then the skills, then the augments' blocks. */
export function buildSystemPrompt(identity: string, skills: LoadedSkill[], augments: Augment[]): string {
  const sections = [identity.trim(), skillsSection(skills), ...augmentBlocks(augments)];
  return sections.filter((section): section is string => section !== undefined && section !== '').join('\n\n');
}
