import { RequestError, type PromptResponse } from '@agentclientprotocol/sdk';
import type { FloorRun } from '../../kernel/hold-floor.js';
import type { TurnResult } from '../../kernel/turn-loop.js';

/**
 * How the turn ended, in ACP's stop reasons, honestly: a reply cut at engine.maxTokens is
 * `max_tokens`, a turn out of inference rounds `max_turn_requests`, a question to the person
 * `end_turn` with `_meta.auggy.status: "input-required"` (the next prompt is the answer). A
 * failed turn is no stop reason: it is a JSON-RPC error with its one sentence.
 */
export function promptResponse(result: TurnResult): PromptResponse {
  switch (result.status) {
    case 'completed':
      return { stopReason: result.finishReason === 'length' ? 'max_tokens' : 'end_turn' };
    case 'input-required':
      return { stopReason: 'end_turn', _meta: { auggy: { status: 'input-required', ...(result.message ? { question: result.message } : {}) } } };
    case 'budget-exhausted':
      return { stopReason: 'max_turn_requests', _meta: { auggy: { status: 'budget-exhausted', message: result.message ?? '' } } };
    case 'canceled':
      return { stopReason: 'cancelled' };
    case 'failed':
      throw new RequestError(-32603, result.message ?? 'the turn failed', { auggy: { status: 'failed', code: result.code ?? 'failed' } });
  }
}

/**
 * How a prompt that held the floor over many turns (a goal's loop) ended: the whole run's status,
 * an augment's release when it gave one (`goal achieved: …` is `end_turn`, its budget
 * `max_turn_requests`, a pause for failure a JSON-RPC error with its sentence), and the goal as
 * it stands in `_meta.auggy.goal` when the agent has one.
 */
export function floorResponse(floor: FloorRun, snapshot: Record<string, unknown>, command?: string): PromptResponse {
  const response = promptResponse(floor.whole);
  const extra = {
    ...(command !== undefined ? { command } : {}),
    ...('goal' in snapshot ? { goal: snapshot.goal } : {}),
    ...(floor.turns.length > 1 ? { turns: floor.turns.length } : {}),
  };
  if (Object.keys(extra).length === 0) return response;
  const auggy = (response._meta?.auggy ?? {}) as Record<string, unknown>;
  return { ...response, _meta: { ...response._meta, auggy: { ...auggy, ...extra } } };
}
