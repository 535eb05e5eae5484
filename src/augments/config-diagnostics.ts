import type { z } from 'zod';
import type { Diagnostic } from '../agent/types.js';
import { ModelSpecError, parseModelRef } from '../model/model-spec.js';

/** Turns a zod failure on an augment's `config` into diagnostics pointing at augment.yaml. */
export function configDiagnostics(schema: z.ZodType, config: Record<string, unknown>, file: string): Diagnostic[] {
  const parsed = schema.safeParse(config);
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) => ({
    severity: 'error' as const,
    file,
    field: ['config', ...issue.path.map(String)].join('.'),
    message: issue.message,
  }));
}

/** An evaluator's `config.evaluatorModel` (userAsk's judge, the goal's evaluator): a `provider:model` the model layer can read. */
export function evaluatorModelDiagnostics(evaluatorModel: string | undefined, file: string): Diagnostic[] {
  if (evaluatorModel === undefined) return [];
  try {
    parseModelRef(evaluatorModel, 'evaluatorModel');
    return [];
  } catch (error) {
    if (!(error instanceof ModelSpecError)) throw error;
    return [{ severity: 'error', file, field: 'config.evaluatorModel', message: error.message }];
  }
}
