import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { skillFrontMatterSchema } from './schema.js';
import { schemaDiagnostics } from './schema-issues.js';
import { splitFrontMatter } from './front-matter.js';
import { parseYamlSource } from './yaml-source.js';
import { readAgentFile } from './read-agent-file.js';
import type { Diagnostic, LoadedSkill } from './types.js';

const EXAMPLES = {
  name: 'name: the-skill-name',
  description: 'description: one line on when the guidance applies',
};

const FRONT_MATTER_FIX = 'start the file with ---, then name: and description: lines, then ---';

/** Reads one `skills/<id>/SKILL.md`; every problem is a warning, because a skill is only guidance. */
function loadSkill(agentDir: string, id: string): { skill?: LoadedSkill; diagnostics: Diagnostic[] } {
  const file = `skills/${id}/SKILL.md`;
  const path = join(agentDir, file);
  if (!existsSync(path)) {
    return {
      diagnostics: [{ severity: 'warning', file: `skills/${id}`, message: `has no SKILL.md, so the skill is left out; add ${file} or remove the folder` }],
    };
  }
  const read = readAgentFile(agentDir, file);
  // Guidance that leads outside the folder, or is not a plain small file, is refused outright.
  if (!read.ok) return { diagnostics: [{ severity: 'error', file, message: `${read.message}` }] };
  const split = splitFrontMatter(read.text);
  if (!split) {
    return { diagnostics: [{ severity: 'warning', file, line: 1, message: `has no front matter, so the skill is left out; ${FRONT_MATTER_FIX}` }] };
  }
  const parsed = parseYamlSource(split.yaml, file, { lineOffset: split.lineOffset, severity: 'warning' });
  if (!parsed.source) return { diagnostics: parsed.diagnostics };
  const checked = skillFrontMatterSchema.safeParse(parsed.source.data ?? {});
  if (!checked.success) {
    return { diagnostics: schemaDiagnostics(checked.error.issues, parsed.source, { severity: 'warning', examples: EXAMPLES }) };
  }
  return {
    skill: { id, name: checked.data.name, description: checked.data.description, body: split.body, file },
    diagnostics: [],
  };
}

/** Every folder under `skills/`, in name order so the system prompt is stable. */
export function loadSkills(agentDir: string): { skills: LoadedSkill[]; diagnostics: Diagnostic[] } {
  const root = join(agentDir, 'skills');
  if (!existsSync(root)) return { skills: [], diagnostics: [] };
  const ids = readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
    .map((entry) => entry.name)
    .sort();
  const skills: LoadedSkill[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const id of ids) {
    const result = loadSkill(agentDir, id);
    if (result.skill) skills.push(result.skill);
    diagnostics.push(...result.diagnostics);
  }
  return { skills, diagnostics };
}
