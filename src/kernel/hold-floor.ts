/**
 * One road for a run that keeps the floor over many turns (a goal loop): a host starts the first
 * turn its own way (a message, tool results, answers), then this follows every continuation an
 * augment asks for, until none is asked, the signal stops it, or the person is asked. Every host
 * (chat, print, serve, ACP, auggy test) calls it, so the loop has one shape everywhere.
 */
import type { Conversation, ConversationTurn, TurnOptions } from './conversation.js';
import type { FailureCode, TurnStatus } from './events.js';

export interface FloorRun {
  /** Every turn the run took, the first one included, in order. */
  turns: ConversationTurn[];
  /** The last of them. */
  last: ConversationTurn;
  /** How the whole run ended: an augment's release when it gave one, else the last turn's status. */
  status: TurnStatus;
  message?: string;
  /** Its failure code: for a release, the release's status said as one (a goal's budget); else the last turn's. */
  code?: FailureCode;
  /**
   * The run as one turn, as a host that reports one result tells it: how the run ended (above),
   * everything said and called in every turn, every token spent, and a cost only when every
   * turn's is known (a total with an unpriced turn left out would mislead).
   */
  whole: ConversationTurn;
}

function releaseCode(status: TurnStatus): FailureCode | undefined {
  return status === 'budget-exhausted' ? 'budget_exhausted' : status === 'failed' ? 'failed' : undefined;
}

export interface FloorOptions extends TurnOptions {
  /** Told of each turn as it ends, before the next one starts (print flushes its events, the chat its view). */
  onTurn?(turn: ConversationTurn, index: number): void | Promise<void>;
  /** Told as a continued turn is about to start, with the directive it starts from. */
  onContinue?(continuation: { directive: string; by: string }): void;
}

/** Runs `first`, then each continued turn in the same way (same signal, person and client tools). */
export async function holdFloor(
  conversation: Pick<Conversation, 'continueTurn'>,
  first: () => Promise<ConversationTurn>,
  options: FloorOptions = {},
): Promise<FloorRun> {
  const { onTurn, onContinue, ...turnOptions } = options;
  const turns: ConversationTurn[] = [];
  let turn = await first();
  for (;;) {
    turns.push(turn);
    await onTurn?.(turn, turns.length - 1);
    const continuation = turn.continuation;
    if (!continuation || turnOptions.signal?.aborted) break;
    onContinue?.(continuation);
    turn = await conversation.continueTurn(continuation, turnOptions);
  }
  const release = turn.release;
  const code = release ? releaseCode(release.status) : turn.code;
  const ending = {
    status: release?.status ?? turn.status,
    ...(release ? { message: release.message } : turn.message !== undefined ? { message: turn.message } : {}),
    ...(code !== undefined ? { code } : {}),
  };
  return { turns, last: turn, ...ending, whole: wholeRun(turns, ending) };
}

function wholeRun(turns: readonly ConversationTurn[], ending: Pick<FloorRun, 'status' | 'message' | 'code'>): ConversationTurn {
  const { message: _lastMessage, code: _lastCode, cost: _lastCost, ...last } = turns[turns.length - 1];
  const priced = turns.every((turn) => turn.cost !== undefined);
  return {
    ...last,
    ...ending,
    text: turns
      .map((turn) => turn.text)
      .filter((said) => said !== '')
      .join('\n\n'),
    toolCalls: turns.flatMap((turn) => turn.toolCalls),
    usage: {
      inputTokens: turns.reduce((sum, turn) => sum + turn.usage.inputTokens, 0),
      outputTokens: turns.reduce((sum, turn) => sum + turn.usage.outputTokens, 0),
    },
    ...(priced ? { cost: turns.reduce((sum, turn) => sum + (turn.cost ?? 0), 0) } : {}),
  };
}
