import type { Augment, BatchDecision, CallSettings, FinishedTurn, ReplyReviewer, SettledToolCall, TurnHookContext } from './augment.js';
import type { KernelTool } from './tool.js';
import type { FailureCode, TurnStatus } from './events.js';
import type { TurnResult } from './turn-loop.js';

/**
 * How a conversation's augments, asked one after another, come to one answer: the tools of a
 * round, the settings of a model call, what follows a batch of tool calls, and who holds the
 * floor after a turn. Each rule is written once here so the conversation only wires them.
 */

/** Every augment's tools, narrowed by each augment's filter in order, then the client's beside them. */
export function toolsOfRound(augments: readonly Augment[], clientTools: readonly KernelTool[]): KernelTool[] {
  const own = augments.reduce(
    (tools, augment) => augment.filterTools?.(tools) ?? tools,
    augments.flatMap((augment) => augment.tools?.() ?? []),
  );
  // The client's tools sit beside the agent's own; a name the agent uses stays the agent's.
  const extra = clientTools.filter((tool) => !own.some((mine) => mine.name === tool.name));
  return [...own, ...extra];
}

/** The first augment that sets call settings (a workflow state's prompt) has them. */
export function settingsOfRound(augments: readonly Augment[]): CallSettings | undefined {
  return augments.map((augment) => augment.callSettings?.()).find((asked) => asked !== undefined);
}

/** The first augment that checks replies (a workflow state's guardrails) checks this round's. */
export function reviewerOfRound(augments: readonly Augment[]): ReplyReviewer | undefined {
  return augments.map((augment) => augment.replyReviewer?.()).find((reviewer) => reviewer !== undefined);
}

/** Every augment sees the batch; for each field the first augment that decides it wins. */
export async function decideAfterBatch(augments: readonly Augment[], batch: SettledToolCall[], context: TurnHookContext): Promise<BatchDecision | undefined> {
  let decision: BatchDecision | undefined;
  for (const augment of augments) {
    const next = await augment.afterBatch?.(batch, context);
    if (next) decision = { terminate: decision?.terminate ?? next.terminate, close: decision?.close ?? next.close };
  }
  return decision;
}

/** Where the floor goes after a turn: the next turn's directive, or the floor given back. */
export interface FloorAfterTurn {
  continuation?: { directive: string; by: string };
  release?: { status: TurnStatus; message: string; by: string };
}

/** Every augment's afterTurn, in order; the first to ask for a continuation or a release has it. */
export async function decideAfterTurn(augments: readonly Augment[], finished: FinishedTurn): Promise<FloorAfterTurn> {
  const floor: FloorAfterTurn = {};
  for (const augment of augments) {
    const decision = (await augment.afterTurn?.(finished)) ?? undefined;
    if (decision?.continueWith !== undefined && !floor.continuation) floor.continuation = { directive: decision.continueWith, by: augment.id };
    if (decision?.release && !floor.release) floor.release = { ...decision.release, by: augment.id };
  }
  return floor;
}

/** A turn that ended before any model round: nothing said, nothing spent. */
export function turnFailedBeforeModel(message: string, code: FailureCode): TurnResult {
  return { status: 'failed', message, code, text: '', toolCalls: [], usage: { inputTokens: 0, outputTokens: 0 }, finishReason: 'error' };
}
