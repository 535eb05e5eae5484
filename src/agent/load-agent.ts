import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { agentYamlSchema, engineSchema } from './schema.js';
import { schemaDiagnostics } from './schema-issues.js';
import { locateField, parseYamlSource, type YamlSource } from './yaml-source.js';
import { loadAugments } from './load-augments.js';
import { loadSkills } from './load-skills.js';
import { checkEngine } from './engine-checks.js';
import { readDotEnv } from './dot-env.js';
import { readAgentFile } from './read-agent-file.js';
import { catalogOf, type AugmentCatalog, type AugmentType, type Diagnostic, type LoadedAgent, type LoadedSkill, type LoadResult } from './types.js';
import { missingTools, offeredTools } from './skill-tools.js';
import { misspelledKeys } from './misspelled-keys.js';

export interface LoadOptions {
  /** The environment provider keys are looked up in besides .env; process.env by default. */
  processEnv?: NodeJS.ProcessEnv;
}

const AGENT_FILE = 'agent.yaml';

const AGENT_EXAMPLES = {
  name: 'name: my-agent',
  engine: 'engine: with provider: and model: under it',
  'engine.provider': 'provider: openai under engine',
  'engine.model': 'model: gpt-5.4-mini under engine',
  'engine.pricing.input': 'input: <US dollars per million input tokens> under engine.pricing, like input: 3',
  'engine.pricing.output': 'output: <US dollars per million output tokens> under engine.pricing, like output: 15',
};

function error(message: string, extra: Partial<Diagnostic> = {}): Diagnostic {
  return { severity: 'error', file: AGENT_FILE, message, ...extra };
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

const DEFAULT_IDENTITY = './identity.md';

/**
 * Reads the identity file: the one agent.yaml's `identity:` names (missing is an error), else
 * ./identity.md when the folder has one. Real auggy folders may have neither: the agent is then
 * its purpose and skills alone. Empty is a warning.
 */
function readIdentity(
  agentDir: string,
  named: string | undefined,
  purpose: string | undefined,
  source: YamlSource,
): { text?: string; diagnostics: Diagnostic[] } {
  if (named === undefined && !existsSync(resolve(agentDir, DEFAULT_IDENTITY))) {
    return { text: purpose?.trim() ? `Your purpose: ${purpose.trim()}` : '', diagnostics: [] };
  }
  const identity = named ?? DEFAULT_IDENTITY;
  const position = named === undefined ? undefined : locateField(source, ['identity']);
  const at = named === undefined ? {} : { field: 'identity', line: position?.line, column: position?.column };
  const read = readAgentFile(agentDir, identity);
  if (!read.ok && read.problem === 'missing') {
    return { diagnostics: [error(`${identity} does not exist; write the agent's instructions there, or point identity: at the right file`, at)] };
  }
  if (!read.ok) return { diagnostics: [error(`${identity} ${read.message}`, at)] };
  const text = read.text;
  if (text.trim() === '') {
    return {
      text,
      diagnostics: [
        { severity: 'warning', file: AGENT_FILE, ...at, message: `${identity} is empty, so the agent has no instructions; describe its job there` },
      ],
    };
  }
  return { text, diagnostics: [] };
}

/**
 * Skills that belong to an augment the agent will not run would describe tools the model does not
 * have: those of ignored augments (by id or type), and built-in augments' skills when that augment
 * is not listed.
 */
function usableSkills(
  skills: LoadedSkill[],
  ignored: readonly string[],
  activeTypes: ReadonlySet<string>,
  known: AugmentCatalog['known'],
): { skills: LoadedSkill[]; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const kept = skills.filter((skill) => {
    // The augment's own warning already names the skill, so it is said once.
    if (ignored.includes(skill.id)) return false;
    const owner = known.find((entry) => entry.skill === skill.id);
    if (owner && !activeTypes.has(owner.type)) {
      diagnostics.push({
        severity: 'warning',
        file: `skills/${skill.id}`,
        message: `is guidance for the ${owner.type} augment, which agent.yaml does not list, so it is left out; add ${owner.type} under augments or remove the folder`,
      });
      return false;
    }
    return true;
  });
  return { skills: kept, diagnostics };
}

/** Skills whose tools no enabled augment offers are left out: the model would be told to call what it does not have. */
function skillsWithTools(agent: LoadedAgent, types: readonly AugmentType[]): { skills: LoadedSkill[]; diagnostics: Diagnostic[] } {
  const offered = offeredTools(agent, types);
  const diagnostics: Diagnostic[] = [];
  const kept = agent.skills.filter((skill) => {
    const missing = missingTools(skill, offered);
    if (!missing) return true;
    const names = missing.slice(0, 4).join(', ') + (missing.length > 4 ? ', ...' : '');
    diagnostics.push({
      severity: 'warning',
      file: skill.file,
      message: `tells the model to use ${names}, which no enabled augment offers, so it is left out; enable the augment that offers ${missing.length === 1 ? 'it' : 'them'} or remove skills/${skill.id}`,
    });
    return false;
  });
  return { skills: kept, diagnostics };
}

/**
 * Loads an agent folder and checks everything a run depends on. The agent comes back only when
 * there are no errors; warnings never stop a load. Of a catalog, only the augment types the folder
 * lists are loaded.
 */
export async function loadAgent(dir: string, augmentTypes: readonly AugmentType[] | AugmentCatalog, options: LoadOptions = {}): Promise<LoadResult> {
  const catalog = catalogOf(augmentTypes);
  const agentDir = resolve(dir);
  const processEnv = options.processEnv ?? process.env;
  if (!existsSync(agentDir) || !statSync(agentDir).isDirectory()) {
    return { diagnostics: [error(`${agentDir} is not a folder; pass an agent folder, or create one with auggy create <name>`)] };
  }
  const agentPath = resolve(agentDir, AGENT_FILE);
  if (!existsSync(agentPath)) {
    return { diagnostics: [error(`not found in ${agentDir}; pass an agent folder, or create one with auggy create <name>`)] };
  }

  const agentFile = readAgentFile(agentDir, AGENT_FILE);
  if (!agentFile.ok) return { diagnostics: [error(agentFile.message)] };
  const parsed = parseYamlSource(agentFile.text, AGENT_FILE);
  if (!parsed.source) return { diagnostics: parsed.diagnostics };
  const source = parsed.source;
  if (!isMapping(source.data)) {
    return {
      diagnostics: [error('must be a mapping of keys (name:, engine:, augments:, ...); see the agent folder format in the README', { line: 1, column: 1 })],
    };
  }
  const raw = source.data;
  const diagnostics: Diagnostic[] = [];

  const checked = agentYamlSchema.safeParse(raw);
  if (!checked.success) diagnostics.push(...schemaDiagnostics(checked.error.issues, source, { examples: AGENT_EXAMPLES }));
  diagnostics.push(...misspelledKeys(source));

  // The rest is checked even when the schema failed, so one validate run shows every problem.
  const identityPath = checked.success ? checked.data.identity : typeof raw.identity === 'string' && raw.identity !== '' ? raw.identity : undefined;
  const purpose = typeof raw.purpose === 'string' ? raw.purpose : undefined;
  const identity = readIdentity(agentDir, identityPath, purpose, source);
  diagnostics.push(...identity.diagnostics);

  const dotEnv = readDotEnv(agentDir);
  if (dotEnv.problem) diagnostics.push({ severity: 'error', file: '.env', message: `${dotEnv.problem}; .env holds the provider keys as NAME=value lines` });
  const env = dotEnv.env;
  const engine = engineSchema.safeParse(raw.engine);
  if (engine.success) diagnostics.push(...checkEngine({ agentDir, engine: engine.data, agentYaml: source, dotEnv: env, processEnv }));

  const listed = checked.success ? checked.data.augments : Array.isArray(raw.augments) ? raw.augments.filter((id): id is string => typeof id === 'string') : [];
  const augments = await loadAugments(agentDir, listed, source, catalog);
  diagnostics.push(...augments.diagnostics);

  const allSkills = loadSkills(agentDir);
  diagnostics.push(...allSkills.diagnostics);
  const skills = usableSkills(
    allSkills.skills,
    [...augments.ignored, ...augments.ignoredTypes],
    new Set(augments.augments.map((augment) => augment.type)),
    catalog.known,
  );
  diagnostics.push(...skills.diagnostics);

  if (!checked.success || identity.text === undefined || diagnostics.some((d) => d.severity === 'error')) return { diagnostics };
  const yaml = checked.data;
  const agent: LoadedAgent = {
    dir: agentDir,
    yaml,
    engine: yaml.engine,
    displayName: yaml.displayName ?? yaml.name,
    identity: identity.text,
    skills: skills.skills,
    augments: augments.augments,
    env,
  };
  const withTools = skillsWithTools(agent, augments.types);
  diagnostics.push(...withTools.diagnostics);
  return { agent: { ...agent, skills: withTools.skills }, diagnostics };
}
