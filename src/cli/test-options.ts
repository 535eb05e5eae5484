import type { ModelOptionValues } from './model-options.js';

/** The report formats of `auggy test`. */
export const REPORTERS = ['text', 'junit', 'json'] as const;

export interface TestOptionValues extends ModelOptionValues {
  reporter: (typeof REPORTERS)[number];
  output?: string;
  repeat?: number;
  minPassRate: number;
  filter?: string;
  judgeModel?: string;
  personaModel?: string;
}
