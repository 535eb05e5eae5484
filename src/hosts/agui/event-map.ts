import { EventType, type Event as AguiEvent } from '@ag-ui/core';
import type { KernelEvent, TurnOutcome } from '../../kernel/events.js';
import { clientErrorCode, clientErrorMessage } from '../client-error.js';

/** The client's ids: AG-UI clients match RUN_STARTED/RUN_FINISHED against the run they asked for. */
export interface RunIds {
  threadId: string;
  runId: string;
  /** An AG-UI 1.0 client: a run that stops to ask says so in `outcome` (an interrupt), never as success. */
  interrupts?: boolean;
}

/**
 * Kernel events are AG-UI-shaped already; this names the enum members and drops what the
 * protocol has no field for. The run's bounds (RUN_STARTED, RUN_FINISHED, RUN_ERROR) are not
 * mapped here: the host owns them, so they carry the client's ids and come exactly once.
 */
export function toAguiEvent(event: KernelEvent): AguiEvent | undefined {
  const timestamp = Date.now();
  switch (event.type) {
    case 'RUN_STARTED':
    case 'RUN_FINISHED':
    case 'RUN_ERROR':
      return undefined;
    case 'TEXT_MESSAGE_START':
      return { type: EventType.TEXT_MESSAGE_START, timestamp, messageId: event.messageId, role: event.role };
    case 'TEXT_MESSAGE_CONTENT':
      return { type: EventType.TEXT_MESSAGE_CONTENT, timestamp, messageId: event.messageId, delta: event.delta };
    case 'TEXT_MESSAGE_END':
      return { type: EventType.TEXT_MESSAGE_END, timestamp, messageId: event.messageId };
    case 'TOOL_CALL_START':
      return {
        type: EventType.TOOL_CALL_START,
        timestamp,
        toolCallId: event.toolCallId,
        toolCallName: event.toolCallName,
        ...(event.parentMessageId !== undefined ? { parentMessageId: event.parentMessageId } : {}),
      };
    case 'TOOL_CALL_ARGS':
      return { type: EventType.TOOL_CALL_ARGS, timestamp, toolCallId: event.toolCallId, delta: event.delta };
    case 'TOOL_CALL_END':
      return { type: EventType.TOOL_CALL_END, timestamp, toolCallId: event.toolCallId };
    case 'TOOL_CALL_RESULT':
      // AG-UI has no error flag on a result; the content already says what went wrong.
      return { type: EventType.TOOL_CALL_RESULT, timestamp, messageId: event.messageId, toolCallId: event.toolCallId, content: event.content, role: 'tool' };
    case 'CUSTOM':
      return { type: EventType.CUSTOM, timestamp, name: event.name, value: clientValue(event.value) };
    case 'STATE_SNAPSHOT':
      return { type: EventType.STATE_SNAPSHOT, timestamp, snapshot: event.snapshot };
    case 'STATE_DELTA':
      return { type: EventType.STATE_DELTA, timestamp, delta: event.delta };
  }
}

/**
 * A CUSTOM value as a remote client may read it: where an augment gave a client form of a
 * sentence that may name a server or quote it (`clientText` for `text`, `clientError` for
 * `error`), the client gets that form in its place. The full sentence stays in the session log.
 */
function clientValue(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const { clientText, clientError, ...rest } = value as Record<string, unknown>;
  return {
    ...rest,
    ...(typeof clientText === 'string' ? { text: clientText } : {}),
    ...(typeof clientError === 'string' ? { error: clientError } : {}),
  };
}

/** The full sentence a client gets only the client form of, for the operator's log. */
export function withheldFromClient(event: KernelEvent): string | undefined {
  if (event.type !== 'CUSTOM' || typeof event.value !== 'object' || event.value === null) return undefined;
  const { text, clientText, error, clientError } = event.value as Record<string, unknown>;
  if (typeof clientText === 'string' && typeof text === 'string') return text;
  if (typeof clientError === 'string' && typeof error === 'string') return error;
  return undefined;
}

export function runStartedEvent(ids: RunIds): AguiEvent {
  return { type: EventType.RUN_STARTED, timestamp: Date.now(), threadId: ids.threadId, runId: ids.runId };
}

/**
 * The terminal event for a finished turn: a failed turn, or one that ran out of budget, is
 * RUN_ERROR whose `code` names the kind and whose `message` never holds the model server's
 * address or a key; every other status is RUN_FINISHED whose `result` carries it
 * (`input-required` with the question as `message`). A cancellation also says so in AG-UI's
 * own `outcome`, so clients that know 1.0 read it too; for a 1.0 client a run that stopped to
 * ask ends with `outcome: {type: "interrupt"}`, its `result` kept for readers that look there.
 */
export function terminalEvent(ids: RunIds, outcome: TurnOutcome): AguiEvent {
  const timestamp = Date.now();
  if (outcome.status === 'failed' || outcome.status === 'budget-exhausted') {
    return { type: EventType.RUN_ERROR, timestamp, message: clientErrorMessage(outcome), code: clientErrorCode(outcome) };
  }
  const result = outcome.message !== undefined ? { status: outcome.status, message: outcome.message } : { status: outcome.status };
  return {
    type: EventType.RUN_FINISHED,
    timestamp,
    threadId: ids.threadId,
    runId: ids.runId,
    result,
    ...(outcome.status === 'canceled' ? { outcome: { type: 'cancelled' as const } } : {}),
    // Frontend tool calls left for the application to run, as AG-UI names them.
    ...(outcome.pendingToolCalls?.length ? { outcome: { type: 'success' as const, pendingToolCallIds: outcome.pendingToolCalls } } : {}),
    ...(ids.interrupts && outcome.interrupts?.length ? { outcome: { type: 'interrupt' as const, interrupts: outcome.interrupts } } : {}),
  };
}
