import { z } from 'zod';
import type { Diagnostic } from '../../agent/types.js';
import { configDiagnostics, evaluatorModelDiagnostics } from '../config-diagnostics.js';

export const DEFAULT_MAX_TURNS = 20;
/** The longest condition `/goal` takes: it is in every system prompt while the goal is open. */
export const MAX_CONDITION_CHARS = 4000;

const positiveWhole = (what: string) =>
  z
    .number()
    .int(`must be a whole number of ${what}`)
    .min(1, `must be at least 1 ${what.replace(/s$/, '')}`);

export const goalConfigSchema = z.object({
  /** `provider:model` that judges each turn; the agent's own model when absent. */
  evaluatorModel: z.string().trim().min(1, 'must be provider:model, like openai:gpt-5.4-mini').optional(),
  /** Turns evaluated before the goal ends as budget-exhausted. */
  maxTurns: positiveWhole('turns').max(1000, 'must be at most 1000 turns').optional(),
  /** Tokens (input and output, evaluator included) the goal may spend. */
  maxTokens: positiveWhole('tokens').optional(),
  /** Seconds of working time (not time spent waiting for the person) the goal may take. */
  maxWallSeconds: positiveWhole('seconds').optional(),
});

export interface GoalConfig {
  evaluatorModel?: string;
  maxTurns: number;
  maxTokens?: number;
  maxWallSeconds?: number;
}

/** The settings with defaults filled in; an invalid config (validate reports it) falls back to the defaults. */
export function resolveGoalConfig(config: Record<string, unknown>): GoalConfig {
  const parsed = goalConfigSchema.safeParse(config);
  const data = parsed.success ? parsed.data : {};
  return { evaluatorModel: data.evaluatorModel, maxTurns: data.maxTurns ?? DEFAULT_MAX_TURNS, maxTokens: data.maxTokens, maxWallSeconds: data.maxWallSeconds };
}

export function validateGoalConfig(config: Record<string, unknown>, file: string): Diagnostic[] {
  const found = configDiagnostics(goalConfigSchema, config, file);
  if (found.length > 0) return found;
  return evaluatorModelDiagnostics(goalConfigSchema.parse(config).evaluatorModel, file);
}
