import { z } from 'zod';
import type { Diagnostic } from '../../agent/types.js';
import { configDiagnostics, evaluatorModelDiagnostics } from '../config-diagnostics.js';

export const DEFAULT_MAX_ASK_CHARS = 4000;
/** Below this an ask cannot say much; above it the ask alone would crowd every system prompt. */
export const MIN_MAX_ASK_CHARS = 20;
export const MAX_MAX_ASK_CHARS = 100_000;

export const userAskConfigSchema = z.object({
  /** `provider:model` that judges each turn; the agent's own model when absent. */
  evaluatorModel: z.string().trim().min(1, 'must be provider:model, like openai:gpt-5.4-mini').optional(),
  /** Longest ask kept, in characters; longer user messages are cut. */
  maxAskChars: z
    .number()
    .int('must be a whole number of characters')
    .min(MIN_MAX_ASK_CHARS, `must be at least ${MIN_MAX_ASK_CHARS}`)
    .max(MAX_MAX_ASK_CHARS, `must be at most ${MAX_MAX_ASK_CHARS}`)
    .optional(),
});

export interface UserAskConfig {
  evaluatorModel?: string;
  maxAskChars: number;
}

/** The settings with defaults filled in; an invalid config (validate reports it) falls back to the defaults. */
export function resolveUserAskConfig(config: Record<string, unknown>): UserAskConfig {
  const parsed = userAskConfigSchema.safeParse(config);
  const data = parsed.success ? parsed.data : {};
  return { evaluatorModel: data.evaluatorModel, maxAskChars: data.maxAskChars ?? DEFAULT_MAX_ASK_CHARS };
}

export function validateUserAskConfig(config: Record<string, unknown>, file: string): Diagnostic[] {
  const found = configDiagnostics(userAskConfigSchema, config, file);
  if (found.length > 0) return found;
  return evaluatorModelDiagnostics(userAskConfigSchema.parse(config).evaluatorModel, file);
}
