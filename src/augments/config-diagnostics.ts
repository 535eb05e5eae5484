import type { z } from 'zod';
import type { Diagnostic } from '../agent/types.js';

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
