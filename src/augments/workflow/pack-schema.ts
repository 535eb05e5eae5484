import { z } from 'zod';

/**
 * The PromptPack file as published (promptpack.org schema, workflow extension with RFC 0014's
 * `control`). Every object is loose: packs written for other runtimes carry properties auggy does
 * not use (template_engine, fragments, evals, persistence, artifacts, ...), and those are kept
 * and ignored rather than refused.
 *
 * `control` and `orchestration` are read as plain strings here so the validator can name the
 * state and the allowed values itself; `pack-model.ts` narrows them once the pack is known good.
 */

export const CONTROLS = ['user', 'agent'] as const;
export type Control = (typeof CONTROLS)[number];

/** `composition` is published (RFC 0010) but not run here: such a state waits for external events. */
export const ORCHESTRATIONS = ['internal', 'external', 'hybrid', 'composition'] as const;
export type Orchestration = (typeof ORCHESTRATIONS)[number];

export const WORKFLOW_VERSIONS = [1, 2] as const;

/** How workflow__set_artifact writes a value (RFC 0009): replace it (the default) or add to its end. */
export const ARTIFACT_MODES = ['replace', 'append'] as const;

const positiveInt = z.number().int().min(1);

export const variableSchema = z.looseObject({
  name: z.string().min(1),
  type: z.string().optional(),
  required: z.boolean().optional(),
  default: z.unknown().optional(),
  description: z.string().optional(),
});

/** PromptKit's older prompt shape writes the template as `system`; it is read as system_template. */
const withSystemTemplate = (raw: unknown) =>
  raw !== null && typeof raw === 'object' && !('system_template' in raw) && typeof (raw as { system?: unknown }).system === 'string'
    ? { ...raw, system_template: (raw as { system: string }).system }
    : raw;

export const promptSchema = z.preprocess(
  withSystemTemplate,
  z.looseObject({
    id: z.string().optional(),
    name: z.string().optional(),
    version: z.union([z.string(), z.number()]).optional(),
    description: z.string().optional(),
    system_template: z.string(),
    // Published packs list variables; a plain name → value mapping is accepted too, as a shorthand.
    variables: z.union([z.array(variableSchema), z.record(z.string(), z.unknown())]).optional(),
    /** Names of the agent's tools offered while a state runs this prompt. */
    tools: z.array(z.string().min(1)).optional(),
    /** Sampling for the model calls this prompt makes (PromptKit applies temperature and max_tokens; top_p and the rest are kept and not sent). */
    parameters: z.looseObject({ temperature: z.number().min(0).max(2).optional(), max_tokens: z.number().int().min(1).optional() }).optional(),
  }),
);

export const stateSchema = z.looseObject({
  prompt_task: z.string().min(1).optional(),
  description: z.string().optional(),
  on_event: z.record(z.string(), z.string()).optional(),
  terminal: z.boolean().optional(),
  max_visits: positiveInt.optional(),
  on_max_visits: z.string().min(1).optional(),
  orchestration: z.string().optional(),
  control: z.string().optional(),
  /**
   * auggy's person state: `{prompt, fields}` asked of the person instead of a model round. Checked
   * by the validator against the questionnaire's own schema, so each problem gets its own line.
   */
  ask: z.unknown().optional(),
  /** RFC 0009: named slots the agent fills with workflow__set_artifact; workflow-wide, so one name in two states is one artifact. */
  artifacts: z.record(z.string(), z.looseObject({ type: z.string().optional(), description: z.string().optional(), mode: z.string().optional() })).optional(),
});

export const budgetSchema = z.looseObject({
  max_total_visits: positiveInt.optional(),
  max_tool_calls: positiveInt.optional(),
  max_wall_time_sec: positiveInt.optional(),
  /** auggy's: model rounds one turn may take across the states it passes through (settings.maxInferenceLoops otherwise). */
  max_rounds: positiveInt.max(1000).optional(),
});

export const workflowSchema = z.looseObject({
  version: z.number(),
  entry: z.string().min(1),
  states: z.record(z.string(), stateSchema).refine((states) => Object.keys(states).length > 0, 'needs at least one state'),
  engine: z.looseObject({ budget: budgetSchema.optional() }).optional(),
});

export const packSchema = z.looseObject({
  id: z.string().optional(),
  name: z.string().optional(),
  version: z.union([z.string(), z.number()]).optional(),
  description: z.string().optional(),
  template_engine: z.looseObject({ syntax: z.string().optional() }).optional(),
  prompts: z.record(z.string(), promptSchema),
  /** Optional, as in PromptKit: a pack without one is the agent's prompt set (one prompt chosen, no states). */
  workflow: workflowSchema.optional(),
  /** Tools the prompts may use, declared by name, description and JSON Schema parameters; an augment or MCP server provides them. */
  tools: z.record(z.string(), z.looseObject({ name: z.string().optional(), description: z.string().optional() })).optional(),
});

export type PackFile = z.infer<typeof packSchema>;
export type PackPrompt = z.infer<typeof promptSchema>;
export type PackState = z.infer<typeof stateSchema>;
export type WorkflowBudget = z.infer<typeof budgetSchema>;

/** How a missing required field is written, for validator messages. */
export const PACK_FIELD_EXAMPLES: Readonly<Record<string, string>> = {
  prompts: 'prompts: { <task>: { system_template: "..." } }',
  workflow: 'workflow: { version: 2, entry: <state>, states: {...} }',
  'workflow.version': 'version: 2',
  'workflow.entry': 'entry: <state name>',
  'workflow.states': 'states: { <name>: { prompt_task: <task>, on_event: {...} } }',
};
