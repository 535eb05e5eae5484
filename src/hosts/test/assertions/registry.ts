import type { AssertionType } from './types.js';
import { contentExcludes, contentIncludes, contentIncludesAny, maxLength, minLength, regex } from './content.js';
import { noToolErrors, toolArgs, toolCallCount, toolResultIncludes, toolsCalled, toolsNotCalled } from './tools.js';
import { stateIs, transitionedTo, workflowComplete, workflowTransitionOrder } from './workflow.js';
import { askOutcome, asks, boardLine, contextCompacted, goalMet, goalTurns, turnStatus } from './turn.js';
import { llmJudge, llmJudgeSession } from './judge.js';
import { jsonPath, jsonSchema, jsonValid } from './structured.js';
import { toolArgsExcluded, toolCallChain, toolCallSequence, toolCallsWithArgs, toolNoRepeat, toolResultMatches } from './tool-patterns.js';
import { NOT_RUN_TYPES } from './not-run.js';
import { guardrailTriggered } from './guardrail.js';

/** The types the demo and support examples exercise: PromptKit's names and params where it has them, then auggy's own. */
export const CORE_ASSERTION_TYPES: readonly AssertionType[] = [
  contentIncludes,
  contentIncludesAny,
  contentExcludes,
  regex,
  minLength,
  maxLength,
  toolsCalled,
  toolsNotCalled,
  toolArgs,
  noToolErrors,
  toolResultIncludes,
  toolCallCount,
  stateIs,
  transitionedTo,
  workflowTransitionOrder,
  workflowComplete,
  llmJudge,
  llmJudgeSession,
  turnStatus,
  asks,
  askOutcome,
  boardLine,
  contextCompacted,
  goalMet,
  goalTurns,
];

/** Every type a scenario may name: the core ones, PromptKit's further deterministic ones, and those it cannot run (reported skipped). */
export const ASSERTION_TYPES: readonly AssertionType[] = [
  ...CORE_ASSERTION_TYPES,
  jsonValid,
  jsonPath,
  jsonSchema,
  toolCallsWithArgs,
  toolCallSequence,
  toolNoRepeat,
  toolResultMatches,
  toolArgsExcluded,
  toolCallChain,
  guardrailTriggered,
  ...NOT_RUN_TYPES,
];

/** PromptKit's threshold wrapper: another type's score held to `min_score` / `max_score`. */
export const WRAPPER_TYPE = 'assertion';

export function findAssertionType(name: string): AssertionType | undefined {
  return ASSERTION_TYPES.find((type) => type.name === name || type.aliases?.includes(name));
}

/** Every name a scenario may write, for suggestions. */
export function assertionNames(): string[] {
  return [...ASSERTION_TYPES.flatMap((type) => [type.name, ...(type.aliases ?? [])]), WRAPPER_TYPE];
}
