import type { z } from 'zod';
import type { CompleteFn } from '../../../kernel/augment.js';
import type { Scope } from './scope.js';

/** The verdict of one check, with both sides spelled out for the report. */
export interface CheckResult {
  passed: boolean;
  /** What the scenario asked for, as a phrase: `the reply to include "api-west"`. */
  expected: string;
  /** What happened, as a phrase or a quoted value. */
  actual: string;
  /** 0..1 where a check measures rather than decides (llm_judge, partial matches); `type: assertion` reads it. */
  score?: number;
  /** The check could not run here (a type auggy does not run): reported skipped, never passed. */
  skipped?: boolean;
}

/** What a check can reach beyond its scope: a tool-less model call, and the run's signal. */
export interface CheckContext {
  complete: CompleteFn;
  signal: AbortSignal;
  /** `--judge-model`: the model PromptKit's LLM-judged types ask; without one they are skipped. */
  judgeModel?: string;
}

/** One assertion type: its params' schema and the check. Names and params follow PromptKit where it has them. */
export interface AssertionType<P = unknown> {
  name: string;
  /** PromptKit's other names for the same check. */
  aliases?: readonly string[];
  /** Params as written; unknown keys are ignored, as PromptKit ignores them. */
  params: z.ZodType<P>;
  check(params: P, scope: Scope, context: CheckContext): CheckResult | Promise<CheckResult>;
}

/** Erases an assertion type's params type so types can sit in one list. */
export function assertionType<P>(type: AssertionType<P>): AssertionType<unknown> {
  return type as AssertionType<unknown>;
}
