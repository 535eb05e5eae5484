import { systemLineEvent, type EmitEvent, type FailureCode, type TurnStatus } from '../../kernel/events.js';
import { failureForClient } from '../../kernel/failure-for-client.js';
import type { CompleteFn, FinishedTurn } from '../../kernel/augment.js';
import { outcomeLabel, type Outcome } from './ask-state.js';
import { evaluateTurn } from './evaluator.js';
import type { UserAskStore } from './user-ask-store.js';

/** CUSTOM event carrying each evaluation, for stream-json and AG-UI clients. */
export const EVALUATION_EVENT = 'userAsk.evaluation';

/** The structured form of one evaluation; `outcome` is null when the evaluator call itself failed. */
export interface EvaluationEventValue {
  ok: boolean;
  outcome: Outcome | null;
  reason?: string;
  /** Why the evaluator call failed, in full: it may name the model server. */
  error?: string;
  /** The failure's kind, and `error` as a remote client may read it (serve sends that instead). */
  code?: FailureCode;
  clientError?: string;
  /** False when the evaluator replied but its reply could not be read. */
  readable?: boolean;
  ask: string;
  active: boolean;
  evaluatedTurns: number;
  turnStatus: TurnStatus;
}

/**
 * Turns worth judging. A canceled turn was stopped by the person and a failed one never reached
 * the model's answer (usually the provider is down, and so would the evaluator be): judging
 * those would only spend a call on a verdict about nothing. The ask stays as it was.
 */
const JUDGED: readonly TurnStatus[] = ['completed', 'input-required', 'budget-exhausted'];

export interface JudgeDeps {
  store: UserAskStore;
  complete: CompleteFn;
  emit: EmitEvent;
  evaluatorModel?: string;
}

/** After a turn: one evaluator call, the verdict applied to the ask, and both events out. Returns the error when the call failed. */
export async function judgeTurn(deps: JudgeDeps, turn: FinishedTurn): Promise<{ judged: boolean; error?: string }> {
  const ask = deps.store.active;
  if (!ask || !JUDGED.includes(turn.status)) return { judged: false };
  const result = await evaluateTurn(deps.complete, ask, turn, deps.evaluatorModel);
  if (!result.ok) {
    const clientError = failureForClient(result.code, result.error);
    const value: EvaluationEventValue = {
      ok: false,
      outcome: null,
      error: result.error,
      code: result.code,
      clientError,
      ask: ask.text,
      active: ask.active,
      evaluatedTurns: ask.evaluatedTurns,
      turnStatus: turn.status,
    };
    deps.emit({ type: 'CUSTOM', name: EVALUATION_EVENT, value });
    const line = (why: string) => `user ask not evaluated: the evaluator call failed: ${why} (the ask stays as it was)`;
    deps.emit(systemLineEvent(line(result.error), line(clientError)));
    return { judged: false, error: result.error };
  }
  const next = (await deps.store.evaluated(result.outcome, result.reason)) ?? ask;
  const value: EvaluationEventValue = {
    ok: true,
    outcome: result.outcome,
    reason: result.reason,
    readable: result.readable,
    ask: next.text,
    active: next.active,
    evaluatedTurns: next.evaluatedTurns,
    turnStatus: turn.status,
  };
  deps.emit({ type: 'CUSTOM', name: EVALUATION_EVENT, value });
  deps.emit(systemLineEvent(`user ask ${outcomeLabel(result.outcome)}: ${result.reason}`));
  return { judged: true };
}
