import { existsSync, readdirSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { parse } from 'yaml';
import { z } from 'zod';
import { readBoundedFile } from '../../../agent/read-agent-file.js';

/**
 * A PromptKit persona (`kind: Persona`, examples/*\/personas/*.persona.yaml): who the person is
 * when a self-play turn has a model play them. Read with the rules of PromptKit's Arena
 * (arenaconfig/persona.go): the id is metadata.name, a prompt is required, the style is checked.
 */
export interface Persona {
  id: string;
  /** Where it was read from, as messages name it. */
  file: string;
  description?: string;
  /** PromptKit's legacy plain prompt, used when there is no system_template. */
  systemPrompt?: string;
  /** `{{variable}}` template, rendered with the persona's goals, constraints and style. */
  systemTemplate?: string;
  requiredVars: string[];
  optionalVars: Record<string, string>;
  goals: string[];
  constraints: string[];
  style: { verbosity?: string; challengeLevel?: string; frictionTags: string[] };
  /** PromptKit's default for a persona that names none. */
  temperature: number;
}

/** PromptKit's DefaultPersonaTemperature. */
const DEFAULT_TEMPERATURE = 0.7;

const specSchema = z.looseObject({
  id: z.string().optional(),
  description: z.string().optional(),
  prompt_activity: z.string().optional(),
  fragments: z.array(z.unknown()).optional(),
  system_template: z.string().optional(),
  required_vars: z.array(z.string()).optional(),
  optional_vars: z.record(z.string(), z.string()).optional(),
  system_prompt: z.string().optional(),
  goals: z.array(z.string()).nullish(),
  constraints: z.array(z.string()).nullish(),
  style: z
    .looseObject({
      verbosity: z.enum(['short', 'medium', 'long', '']).optional(),
      challenge_level: z.enum(['low', 'medium', 'high', '']).optional(),
      friction_tags: z.array(z.string()).max(10).nullish(),
    })
    .optional(),
  defaults: z.looseObject({ temperature: z.number().optional() }).optional(),
});

const manifestSchema = z.looseObject({
  apiVersion: z.string().min(1),
  kind: z.literal('Persona', { error: 'kind must be Persona (a PromptKit persona file says kind: Persona)' }),
  metadata: z.looseObject({ name: z.string().min(1, 'metadata.name is required: it is the persona id') }),
  spec: specSchema,
});

export type ReadPersona = { ok: true; persona: Persona } | { ok: false; why: string };

function problemOf(error: z.ZodError): string {
  const issue = error.issues[0];
  const where = issue.path.join('.');
  return where === '' ? issue.message : `${where}: ${issue.message}`;
}

/** Reads one persona file: YAML in PromptKit's manifest form, or JSON with the spec's fields and an id. */
export function readPersona(path: string, shown = path): ReadPersona {
  const read = readBoundedFile(path);
  if (!read.ok) return { ok: false, why: `${shown} ${read.message}` };
  let raw: unknown;
  try {
    raw = /\.json$/i.test(path) ? JSON.parse(read.text) : parse(read.text);
  } catch (error) {
    return { ok: false, why: `${shown} cannot be read: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}` };
  }
  let id: string | undefined;
  let spec: z.infer<typeof specSchema>;
  if (/\.json$/i.test(path)) {
    const parsed = specSchema.safeParse(raw);
    if (!parsed.success) return { ok: false, why: `${shown}: ${problemOf(parsed.error)}` };
    spec = parsed.data;
    id = spec.id;
  } else {
    const parsed = manifestSchema.safeParse(raw);
    if (!parsed.success)
      return { ok: false, why: `${shown} is not a PromptKit persona (apiVersion, kind: Persona, metadata.name, spec): ${problemOf(parsed.error)}` };
    spec = parsed.data.spec;
    // PromptKit: the manifest's name is the id, whatever spec.id says.
    id = parsed.data.metadata.name;
  }
  if (!id) return { ok: false, why: `${shown} has no persona id` };
  if (spec.fragments && spec.fragments.length > 0)
    return { ok: false, why: `persona ${id} uses fragments, which PromptKit does not support either; write system_template or system_prompt` };
  if (!spec.system_template && !spec.system_prompt) {
    const legacy = spec.prompt_activity ? ' (prompt_activity is no longer supported)' : '';
    return { ok: false, why: `persona ${id} has no system_template or system_prompt${legacy}` };
  }
  return {
    ok: true,
    persona: {
      id,
      file: shown,
      description: spec.description,
      systemPrompt: spec.system_prompt,
      systemTemplate: spec.system_template,
      requiredVars: spec.required_vars ?? [],
      optionalVars: spec.optional_vars ?? {},
      goals: spec.goals ?? [],
      constraints: spec.constraints ?? [],
      style: {
        verbosity: spec.style?.verbosity || undefined,
        challengeLevel: spec.style?.challenge_level || undefined,
        frictionTags: spec.style?.friction_tags ?? [],
      },
      temperature: spec.defaults?.temperature ?? DEFAULT_TEMPERATURE,
    },
  };
}

const PERSONA_FILE = /\.persona\.(ya?ml|json)$/i;

/**
 * Where a scenario's personas are looked for: PromptKit's layout (personas/ beside scenarios/),
 * the scenario's own folder, and the agent folder's personas/.
 */
export function personaFolders(scenarioFolder: string, agentDir: string): string[] {
  const folders = [join(scenarioFolder, 'personas'), scenarioFolder, join(dirname(scenarioFolder), 'personas'), join(agentDir, 'personas')];
  return [...new Set(folders.map((folder) => resolve(folder)))];
}

/** The persona with this id in the folders, its file named `<id>.persona.yaml` or any persona file whose id it is. */
export function findPersona(id: string, folders: readonly string[], shown: (path: string) => string = (path) => path): ReadPersona {
  const files = folders
    .filter((folder) => existsSync(folder))
    .flatMap((folder) => {
      try {
        return readdirSync(folder)
          .filter((name) => PERSONA_FILE.test(name))
          .sort()
          .map((name) => join(folder, name));
      } catch {
        return [];
      }
    });
  // The file named for the id first: it is the one meant, and the rest need not be read.
  const ordered = [...files.filter((file) => basename(file).replace(PERSONA_FILE, '') === id), ...files];
  const problems: string[] = [];
  for (const file of new Set(ordered)) {
    const read = readPersona(file, shown(file));
    if (read.ok && read.persona.id === id) return read;
    if (!read.ok && basename(file).replace(PERSONA_FILE, '') === id) return read;
    if (!read.ok) problems.push(read.why);
  }
  const looked = folders.map(shown).join(', ');
  return {
    ok: false,
    why: `persona ${id} has no file: no *.persona.yaml with metadata.name ${id} in ${looked}${problems.length > 0 ? ` (${problems[0]})` : ''}`,
  };
}

/** PromptKit's region, from a persona id's suffix (`challenger_uk`), US otherwise. */
function regionOf(id: string): string {
  return /_(uk|au|us)$/.exec(id)?.[1] ?? 'us';
}

/** PromptKit's renderer: `{{name}}` replaced, repeatedly (a value may hold another), and an unresolved one is an error. */
function render(template: string, vars: Record<string, string>): { ok: true; text: string } | { ok: false; why: string } {
  let text = template;
  for (let pass = 0; pass < 10; pass++) {
    let changed = false;
    for (const [key, value] of Object.entries(vars)) {
      const placeholder = `{{${key}}}`;
      if (text.includes(placeholder)) {
        text = text.split(placeholder).join(value);
        changed = true;
      }
    }
    if (!changed) break;
  }
  const unresolved = [...text.matchAll(/\{\{([^{}]+)\}\}/g)].map((match) => match[1]);
  return unresolved.length > 0
    ? { ok: false, why: `its template leaves ${unresolved.map((name) => `{{${name}}}`).join(', ')} unresolved` }
    : { ok: true, text };
}

/**
 * The persona's system prompt as PromptKit builds it: system_template with its optional vars,
 * the self-play context vars and the persona's own (goals, constraints, style, region) with
 * PromptKit's defaults; else system_prompt as written.
 */
export function personaPrompt(persona: Persona): { ok: true; text: string } | { ok: false; why: string } {
  if (!persona.systemTemplate) return { ok: true, text: persona.systemPrompt ?? '' };
  const vars: Record<string, string> = {
    ...persona.optionalVars,
    context_slot: '',
    domain_hint: 'general',
    user_context: 'user',
    persona_goals: persona.goals.join(', ') || 'Interact naturally and helpfully',
    persona_constraints: persona.constraints.join(', ') || 'Be respectful and constructive',
    verbosity: persona.style.verbosity ?? 'medium',
    challenge_level: persona.style.challengeLevel ?? 'medium',
    friction_tags: persona.style.frictionTags.join(', ') || 'none',
    region: regionOf(persona.id),
  };
  const missing = persona.requiredVars.filter((name) => vars[name] === undefined || vars[name] === '');
  if (missing.length > 0) return { ok: false, why: `persona ${persona.id} needs ${missing.join(', ')}, which nothing sets` };
  const rendered = render(persona.systemTemplate, vars);
  return rendered.ok ? rendered : { ok: false, why: `persona ${persona.id}: ${rendered.why}` };
}
