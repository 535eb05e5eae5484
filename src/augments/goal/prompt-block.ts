import type { GoalConfig } from './config.js';
import { lastVerdict, type GoalState } from './goal-state.js';

/** The goal as the model sees it while it is open; nothing once it is paused or over. */
export function goalPromptBlock(state: GoalState | undefined, config: GoalConfig): string | undefined {
  if (!state || (state.status !== 'active' && state.status !== 'waiting')) return undefined;
  const verdict = lastVerdict(state);
  return [
    `A goal is open for this session:\n<goal_condition>\n${state.condition}\n</goal_condition>`,
    'You keep the floor until it holds: after each turn a separate evaluator reads the transcript and, when the condition does not hold yet, the next turn starts at once with what is missing.',
    'Work toward it step by step and let the transcript show it (tool results, not promises). When only the person can give what you need, ask with request_input: the goal waits for their answer.',
    `Turns evaluated: ${state.turns} of at most ${config.maxTurns}.${verdict && !verdict.met ? ` Last verdict: not met: ${verdict.reason}` : ''}`,
  ].join('\n');
}
