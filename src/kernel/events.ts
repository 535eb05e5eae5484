import type { LoggedEvent } from '../session/entries.js';

import type { ModelFailureCode } from '../model/describe-error.js';
import type { Interrupt } from './interrupt.js';

/**
 * The kernel's event stream. Names and fields follow AG-UI's events one for one, so the
 * serve host encodes them without translation; the TUI and print hosts read the same stream.
 */
export type TurnStatus = 'completed' | 'input-required' | 'failed' | 'canceled' | 'budget-exhausted';

/**
 * The kind of a failed or cut-short turn (serve's RUN_ERROR.code): what went wrong, never where.
 * The model's kinds come from model/describe-error; the rest are the turn's own.
 */
export type FailureCode =
  | ModelFailureCode
  | 'empty_reply'
  | 'budget_exhausted'
  | 'model_config'
  | 'session_error'
  | 'internal_error'
  | 'interrupt_pending'
  | 'failed';

export interface TurnOutcome {
  status: TurnStatus;
  message?: string;
  /** Tool calls left for the client to run (AG-UI frontend tools); their results resume the turn. */
  pendingToolCalls?: string[];
  /** Set when the turn failed or ran out of budget. */
  code?: FailureCode;
  /** What the person is asked, for input-required: hosts that can hold a question open show these. */
  interrupts?: Interrupt[];
}

export type JsonPatchOperation =
  | { op: 'add' | 'replace' | 'test'; path: string; value: unknown }
  | { op: 'remove'; path: string }
  | { op: 'move' | 'copy'; path: string; from: string };

export type KernelEvent =
  | { type: 'RUN_STARTED'; threadId: string; runId: string }
  | { type: 'TEXT_MESSAGE_START'; messageId: string; role: 'assistant' }
  | { type: 'TEXT_MESSAGE_CONTENT'; messageId: string; delta: string }
  | { type: 'TEXT_MESSAGE_END'; messageId: string }
  | { type: 'TOOL_CALL_START'; toolCallId: string; toolCallName: string; parentMessageId?: string }
  | { type: 'TOOL_CALL_ARGS'; toolCallId: string; delta: string }
  | { type: 'TOOL_CALL_END'; toolCallId: string }
  | { type: 'TOOL_CALL_RESULT'; messageId: string; toolCallId: string; content: string; isError?: boolean }
  | { type: 'RUN_FINISHED'; threadId: string; runId: string; result: TurnOutcome }
  | { type: 'RUN_ERROR'; message: string; code?: FailureCode }
  /** Augment events (user ask evaluations, workflow transitions, questions) travel as CUSTOM. */
  | { type: 'CUSTOM'; name: string; value: unknown }
  | { type: 'STATE_SNAPSHOT'; snapshot: Record<string, unknown> }
  | { type: 'STATE_DELTA'; delta: JsonPatchOperation[] };

export type EmitEvent = (event: KernelEvent) => void;

/** CUSTOM event name for a line shown to the person (user ask evaluations, refusals, warnings). */
export const SYSTEM_LINE_EVENT = 'auggy.system';

/**
 * `clientText`: the line as a remote client may read it, when `text` may name a server's address
 * or quote what it said (see failure-for-client.ts); serve sends it in place of `text`.
 */
export function systemLineEvent(text: string, clientText?: string): KernelEvent {
  return { type: 'CUSTOM', name: SYSTEM_LINE_EVENT, value: clientText === undefined || clientText === text ? { text } : { text, clientText } };
}

/**
 * The sentence of a system line, or undefined when the event is not one. `client`: the form a
 * remote client may read (its `clientText` where it has one); the person at this machine reads
 * the full one. Every host reads system lines through this.
 */
export function systemLineOf(event: KernelEvent, reader: 'person' | 'client' = 'person'): string | undefined {
  if (event.type !== 'CUSTOM' || event.name !== SYSTEM_LINE_EVENT) return undefined;
  if (typeof event.value !== 'object' || event.value === null) return undefined;
  const { text, clientText } = event.value as { text?: unknown; clientText?: unknown };
  if (reader === 'client' && typeof clientText === 'string') return clientText;
  return typeof text === 'string' ? text : undefined;
}

/**
 * An event read back from the session log. Only the kernel writes the log's events, so what it
 * reads there is its own; the store keeps them as plain data and cannot say so itself.
 */
export function loggedKernelEvent(event: LoggedEvent): KernelEvent {
  return event as KernelEvent;
}
