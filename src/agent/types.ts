import type { AgentYaml, EngineConfig } from './schema.js';

export type Severity = 'error' | 'warning';

/** One finding about an agent folder, pointing at the file (relative to the folder) and position. */
export interface Diagnostic {
  severity: Severity;
  file: string;
  line?: number;
  column?: number;
  /** Dotted path of the field the finding is about, when there is one (`engine.provider`). */
  field?: string;
  message: string;
  /** `key-not-set`: the provider's key is missing, which a turn reports itself when it runs. */
  code?: 'key-not-set';
}

export interface LoadedSkill {
  id: string;
  name: string;
  description: string;
  body: string;
  file: string;
}

export interface LoadedAugmentConfig {
  /** The id listed in agent.yaml (the folder name under augments/). */
  id: string;
  type: string;
  config: Record<string, unknown>;
  /** augment.yaml path relative to the agent folder, or undefined when the folder is missing. */
  file?: string;
}

/** An agent folder loaded and checked: everything a host needs to run it. */
export interface LoadedAgent {
  dir: string;
  yaml: AgentYaml;
  engine: EngineConfig;
  displayName: string;
  identity: string;
  skills: LoadedSkill[];
  augments: LoadedAugmentConfig[];
  /** Variables from the folder's .env, never printed. */
  env: Record<string, string>;
}

export interface LoadResult {
  agent?: LoadedAgent;
  diagnostics: Diagnostic[];
}

/** `agent.yaml:7:3 error engine.provider: ...` */
export function formatDiagnostic(d: Diagnostic): string {
  const where = [d.file, d.line, d.column].filter((part) => part !== undefined).join(':');
  const field = d.field ? ` ${d.field}:` : '';
  return `${where} ${d.severity}${field} ${d.message}`;
}

/**
 * The augment types a folder may list, as a loader is handed them: each one's name and skill at
 * once, the rest (AugmentType) only for the types the folder lists, so a command loads no code of
 * an augment the agent does not use. A plain list of AugmentTypes serves as one too.
 */
export interface AugmentCatalog {
  readonly known: readonly { type: string; skill?: string }[];
  load(types: readonly string[]): Promise<readonly AugmentType[]>;
}

/** A list of AugmentTypes as a catalog: everything is loaded already. */
export function catalogOf(types: readonly AugmentType[] | AugmentCatalog): AugmentCatalog {
  if (!Array.isArray(types)) return types as AugmentCatalog;
  const list = types as readonly AugmentType[];
  return { known: list, load: (wanted) => Promise.resolve(list.filter((type) => wanted.includes(type.type))) };
}

/**
 * What loading a folder needs to know of each augment type: its name, the skill it brings, how
 * its config is checked and which tools it offers. The kernel's AugmentFactory is one; the list
 * of them is handed down by whoever loads the folder, so this layer names no augment.
 */
export interface AugmentType {
  type: string;
  /** Skill folder under templates/skills/ that belongs to this augment, if any. */
  skill?: string;
  /** Checks `config`; `file` is augment.yaml relative to `agentDir`, where config paths resolve. */
  validateConfig(config: Record<string, unknown>, file: string, agentDir: string): Diagnostic[];
  /** What the augment exposes for this config; the loader reads only the tool names. */
  describe(agent: LoadedAgent, config: Record<string, unknown>): { tools: string[] };
}
