import type { AssertionType } from './types.js';
import { contentExcludes, contentIncludes, contentIncludesAny, maxLength, minLength, regex } from './content.js';
import { noToolErrors, toolArgs, toolCallCount, toolResultIncludes, toolsCalled, toolsNotCalled } from './tools.js';
import { stateIs, transitionedTo, workflowComplete, workflowTransitionOrder } from './workflow.js';
import { askOutcome, asks, boardLine, goalMet, goalTurns, turnStatus } from './turn.js';
import { llmJudge, llmJudgeSession } from './judge.js';

/** Every assertion type auggy runs: PromptKit's names and params where it has them, then auggy's own. */
export const ASSERTION_TYPES: readonly AssertionType[] = [
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
  goalMet,
  goalTurns,
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
