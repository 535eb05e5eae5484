import type { ModelMessage } from '@ai-sdk/provider-utils';
import type { SessionEntry } from './entries.js';
import { attachmentRefsOf, type AttachmentRef } from './attachments.js';
import { prunedOutputNote, toolOutputText } from './tool-output.js';

/** The bytes of an attachment the log refers to, or undefined when the session no longer holds them. */
export type AttachmentLoader = (ref: string) => Uint8Array | undefined;

/**
 * The person's message as the model is sent it: its text, then each image it carried. An image
 * the session no longer holds is said in words, so the conversation still reads.
 */
export function userMessage(text: string, attachments: readonly AttachmentRef[] | undefined, load: AttachmentLoader | undefined): ModelMessage {
  if (!attachments || attachments.length === 0) return { role: 'user', content: text };
  return {
    role: 'user',
    content: [
      { type: 'text', text },
      ...attachments.map((attachment) => {
        const data = load?.(attachment.ref);
        return data
          ? { type: 'file' as const, data, mediaType: attachment.mediaType, ...(attachment.name !== undefined ? { filename: attachment.name } : {}) }
          : { type: 'text' as const, text: `[an image (${attachment.name ?? attachment.ref}) was here; the session no longer holds it]` };
      }),
    ],
  };
}

export type ToolCallPart = { type: 'tool-call'; toolCallId: string; toolName: string; input: unknown };

function toolCallsOf(message: ModelMessage): ToolCallPart[] {
  if (message.role !== 'assistant' || typeof message.content === 'string') return [];
  return message.content.filter((part): part is ToolCallPart & typeof part => part.type === 'tool-call');
}

function resultIdsOf(message: ModelMessage): string[] {
  if (message.role !== 'tool') return [];
  return message.content.flatMap((part) => (part.type === 'tool-result' ? [part.toolCallId] : []));
}

/** A message stored with `textFrom` gets back its text from the events that showed it. */
function withLoggedText(entry: Extract<SessionEntry, { kind: 'message' }>, shownText: Map<string, string>): ModelMessage {
  const { message, textFrom } = entry;
  if (!textFrom || message.role !== 'assistant' || typeof message.content === 'string') return message;
  const text = textFrom.map((id) => shownText.get(id) ?? '').join('');
  return text === '' ? message : { ...message, content: [{ type: 'text', text }, ...message.content] };
}

/** The tool calls of the transcript's last assistant message that no tool message after it answers. */
export function openToolCalls(messages: readonly ModelMessage[]): ToolCallPart[] {
  let index = messages.length - 1;
  while (index >= 0 && messages[index].role === 'tool') index--;
  if (index < 0) return [];
  const answered = new Set(messages.slice(index + 1).flatMap(resultIdsOf));
  return toolCallsOf(messages[index]).filter((call) => !answered.has(call.toolCallId));
}

/** How a compaction's summary opens the transcript: said as the person's, so every provider takes it. */
export const SUMMARY_MESSAGE_PREFIX = "[The earlier conversation, summarised to fit the model's context; the full history is kept in the session log.]\n\n";

/** The message that stands in for the conversation a compaction replaced. */
export function summaryMessage(summary: string): ModelMessage {
  return { role: 'user', content: `${SUMMARY_MESSAGE_PREFIX}${summary}` };
}

/** The summary a message holds, when it is a compaction's stand-in. */
export function summaryIn(message: ModelMessage): string | undefined {
  return message.role === 'user' && typeof message.content === 'string' && message.content.startsWith(SUMMARY_MESSAGE_PREFIX)
    ? message.content.slice(SUMMARY_MESSAGE_PREFIX.length)
    : undefined;
}

function pruned(message: ModelMessage, calls: ReadonlySet<string>): ModelMessage {
  if (message.role !== 'tool' || !message.content.some((part) => part.type === 'tool-result' && calls.has(part.toolCallId))) return message;
  return {
    ...message,
    content: message.content.map((part) => {
      if (part.type !== 'tool-result' || !calls.has(part.toolCallId)) return part;
      const { text, error } = toolOutputText(part.output);
      return { ...part, output: { type: error ? ('error-text' as const) : ('text' as const), value: prunedOutputNote(text.length) } };
    }),
  };
}

/** The transcript with where each turn starts: the index of its first user message, and its turnId. */
export interface TranscriptWithTurns {
  messages: ModelMessage[];
  turnStarts: { index: number; turnId: string }[];
  /** The tool calls whose outputs an earlier compaction pruned: a note stands in their place. */
  prunedCalls: ReadonlySet<string>;
}

/**
 * Rebuilds the model transcript from the session log, compactions applied in the order they were
 * made. A tool call left without its result (a crash or cancel mid-batch) gets a stand-in result,
 * so providers always receive a valid history. Calls at the very end stay open: a client's
 * frontend tool answers them with its next run.
 */
export function transcriptFromEntries(entries: SessionEntry[], load?: AttachmentLoader): ModelMessage[] {
  return transcriptWithTurns(entries, load).messages;
}

/** The transcript, and where in it each turn the log holds still starts (a compaction's cut falls there). */
export function transcriptWithTurns(entries: readonly SessionEntry[], load?: AttachmentLoader): TranscriptWithTurns {
  let raw: ModelMessage[] = [];
  /** The turnId of each message of `raw` that starts a turn (its first user message). */
  let starts: (string | undefined)[] = [];
  const seenTurns = new Set<string>();
  const prunedCalls = new Set<string>();
  const shownText = new Map<string, string>();
  const push = (message: ModelMessage, startsTurn?: string) => {
    raw.push(message);
    starts.push(startsTurn);
  };
  for (const entry of entries) {
    if (entry.kind === 'user') {
      const first = !seenTurns.has(entry.turnId);
      seenTurns.add(entry.turnId);
      push(userMessage(entry.text, attachmentRefsOf(entry.attachments), load), first ? entry.turnId : undefined);
    } else if (entry.kind === 'event' && entry.event.type === 'TEXT_MESSAGE_CONTENT') {
      const { messageId, delta } = entry.event;
      if (typeof messageId === 'string' && typeof delta === 'string') shownText.set(messageId, (shownText.get(messageId) ?? '') + delta);
    } else if (entry.kind === 'message') push(withLoggedText(entry, shownText));
    else if (entry.kind === 'compaction') {
      const cut = entry.keptFromTurn === undefined ? raw.length : starts.indexOf(entry.keptFromTurn);
      // A cut at a turn this log does not hold (a damaged line) is not guessed at: the history stays whole.
      if (cut < 0) continue;
      if (entry.prunedCalls && entry.prunedCalls.length > 0) {
        const calls = new Set(entry.prunedCalls);
        for (const call of calls) prunedCalls.add(call);
        raw = raw.map((message) => pruned(message, calls));
      }
      if (entry.summary !== undefined) {
        raw = [summaryMessage(entry.summary), ...raw.slice(cut)];
        starts = [undefined, ...starts.slice(cut)];
      }
    }
  }
  const repaired: ModelMessage[] = [];
  const turnStarts: TranscriptWithTurns['turnStarts'] = [];
  raw.forEach((message, index) => {
    const turnId = starts[index];
    if (turnId !== undefined) turnStarts.push({ index: repaired.length, turnId });
    repaired.push(message);
    const calls = toolCallsOf(message);
    if (calls.length === 0) return;
    // Results may arrive in several tool messages (the agent's own, then a client's later).
    let end = index + 1;
    while (raw[end]?.role === 'tool') end++;
    if (end === raw.length) return;
    const next = raw[index + 1];
    const answered = new Set(raw.slice(index + 1, end).flatMap(resultIdsOf));
    const missing = calls.filter((call) => !answered.has(call.toolCallId));
    if (missing.length === 0) return;
    const standIns = missing.map((call) => ({
      type: 'tool-result' as const,
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      output: { type: 'error-text' as const, value: 'This tool call was interrupted before it returned a result.' },
    }));
    if (next?.role === 'tool') next.content.push(...standIns);
    else repaired.push({ role: 'tool', content: standIns });
  });
  return { messages: repaired, turnStarts, prunedCalls };
}

/** Stand-in results for calls nobody answered, so the next request is a valid history. */
export function unansweredResults(calls: readonly ToolCallPart[], why: string): ModelMessage {
  return {
    role: 'tool',
    content: calls.map((call) => ({
      type: 'tool-result' as const,
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      output: { type: 'error-text' as const, value: why },
    })),
  };
}
