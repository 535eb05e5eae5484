import type { AfterTurnDecision, CompleteFn, FinishedTurn } from '../../kernel/augment.js';
import { systemLineEvent, type EmitEvent, type TurnStatus } from '../../kernel/events.js';
import type { GoalConfig } from './config.js';
import { evaluateGoal } from './evaluator.js';
import { formatElapsed, lastVerdict, type GoalState, type GoalStatus } from './goal-state.js';
import type { GoalStore } from './goal-store.js';

/** CUSTOM event carrying each verdict and each change of the goal's state, for stream-json, serve and ACP. */
export const GOAL_VERDICT_EVENT = 'goal.verdict';

export interface GoalVerdictValue {
  condition: string;
  status: GoalStatus;
  /** Set when the evaluator judged this turn. */
  met?: boolean;
  reason?: string;
  /** Turns evaluated so far. */
  turns: number;
  tokens: number;
  elapsedSeconds: number;
  /** The turn's own status. */
  turnStatus: TurnStatus;
  /** Why the goal paused, waits or ended, in one sentence. */
  note?: string;
}

export interface JudgeGoalDeps {
  store: GoalStore;
  complete: CompleteFn;
  emit: EmitEvent;
  config: GoalConfig;
}

/** The message of a continued turn: what is still missing, then the goal, so the model knows why it goes on. */
export function continuationDirective(state: GoalState): string {
  const verdict = lastVerdict(state);
  return [
    `The goal is not met yet${verdict ? `: ${verdict.reason}` : '.'}`,
    `Keep working toward it: ${state.condition}`,
    'If you need something only the person can give, ask them with request_input.',
  ].join('\n');
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** The first bound the goal has reached, said as what was used, or undefined. */
function exhaustedBound(store: GoalStore, config: GoalConfig): string | undefined {
  const state = store.state;
  if (!state) return undefined;
  if (state.turns >= config.maxTurns) return `${plural(state.turns, 'turn')} of maxTurns ${config.maxTurns} used`;
  if (config.maxTokens !== undefined && state.tokens >= config.maxTokens) return `${state.tokens} tokens of maxTokens ${config.maxTokens} spent`;
  const elapsed = store.elapsedMs();
  if (config.maxWallSeconds !== undefined && elapsed >= config.maxWallSeconds * 1000)
    return `${formatElapsed(elapsed)} of maxWallSeconds ${config.maxWallSeconds} taken`;
  return undefined;
}

/**
 * After every turn while a goal is open: count what it spent, hand the floor back when the
 * person was asked or the turn did not finish, else judge it; met ends the goal, not met starts
 * the next turn, unless a bound is reached or the loop makes no progress.
 */
export async function judgeGoal(deps: JudgeGoalDeps, turn: FinishedTurn): Promise<AfterTurnDecision | undefined> {
  const { store } = deps;
  const open = store.state;
  if (!open || (open.status !== 'active' && open.status !== 'waiting')) return undefined;
  store.spent((turn.usage?.inputTokens ?? 0) + (turn.usage?.outputTokens ?? 0));
  // The working clock restarts with the turn that brought the person's answer.
  if (open.status === 'waiting' && turn.status !== 'input-required') await store.moveTo('active', null);
  store.setAside(turn.personWaitMs ?? 0);

  const tell = (status: GoalStatus, line: string, verdict?: { met: boolean; reason: string }) => {
    const state = store.state;
    const value: GoalVerdictValue = {
      condition: open.condition,
      status,
      ...(verdict ?? {}),
      turns: state?.turns ?? open.turns,
      tokens: state?.tokens ?? open.tokens,
      elapsedSeconds: Math.round(store.elapsedMs() / 1000),
      turnStatus: turn.status,
      ...(status === 'active' || status === 'achieved' ? {} : { note: line }),
    };
    deps.emit({ type: 'CUSTOM', name: GOAL_VERDICT_EVENT, value });
    deps.emit(systemLineEvent(line));
  };
  const pause = async (line: string, release?: TurnStatus): Promise<AfterTurnDecision | undefined> => {
    await store.moveTo('paused', line);
    tell('paused', line);
    return release ? { release: { status: release, message: line } } : undefined;
  };

  switch (turn.status) {
    case 'input-required': {
      const line = 'goal waiting: the agent asked you something; your answer resumes the goal';
      await store.moveTo('waiting', line);
      tell('waiting', line);
      return undefined;
    }
    case 'canceled':
      return pause('goal paused: the turn was canceled; /goal resume goes on');
    case 'failed':
      return pause(`goal paused: the turn failed${turn.message ? ` (${turn.message})` : ''}; /goal resume tries again`);
    default:
      break;
  }

  const before = lastVerdict(open);
  const result = await evaluateGoal(deps.complete, store.state ?? open, turn, deps.config.evaluatorModel);
  store.spent(result.tokens ?? 0);
  if (turn.signal?.aborted) return pause('goal paused: the turn was canceled while it was being judged; /goal resume goes on');
  if (!result.ok) return pause(`goal paused: the evaluator gave no verdict (${result.error}); /goal resume tries again`, 'failed');
  const state = (await store.judged(result.met, result.reason)) ?? open;
  if (result.met) {
    const line = `goal achieved: ${result.reason}`;
    await store.moveTo('achieved', line);
    tell('achieved', line, result);
    return { release: { status: 'completed', message: line } };
  }
  tell('active', `goal not met (turn ${state.turns} of ${deps.config.maxTurns}): ${result.reason}`, result);
  const bound = exhaustedBound(store, deps.config);
  if (bound !== undefined) {
    const line = `goal budget exhausted: ${bound}; left undone: ${result.reason}`;
    await store.moveTo('budget-exhausted', line);
    tell('budget-exhausted', line);
    return { release: { status: 'budget-exhausted', message: line } };
  }
  // Same words twice with nothing done between: another turn would say them a third time.
  if (before && !before.met && before.reason === result.reason && (turn.toolCalls?.length ?? 0) === 0)
    return pause('goal paused: no progress (the same verdict twice with no tool called between); /goal resume tries again', 'failed');
  await store.moveTo('active', null);
  return { continueWith: continuationDirective(state) };
}
