import type { FailureCode, TurnOutcome } from '../kernel/events.js';
import { failureForClient } from '../kernel/failure-for-client.js';

export function clientErrorCode(outcome: TurnOutcome): FailureCode {
  return outcome.code ?? (outcome.status === 'budget-exhausted' ? 'budget_exhausted' : 'internal_error');
}

/** A failed run as a web client is told it: the kind and what to do, never the server's address. */
export function clientErrorMessage(outcome: TurnOutcome): string {
  return failureForClient(clientErrorCode(outcome), outcome.message);
}
