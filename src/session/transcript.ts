import type { ModelMessage } from '@ai-sdk/provider-utils';
import type { SessionEntry } from './entries.js';

export type ToolCallPart = { type: 'tool-call'; toolCallId: string; toolName: string };

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

/**
 * Rebuilds the model transcript from the session log. A tool call left without its result (a
 * crash or cancel mid-batch) gets a stand-in result, so providers always receive a valid history.
 * Calls at the very end stay open: a client's frontend tool answers them with its next run.
 */
export function transcriptFromEntries(entries: SessionEntry[]): ModelMessage[] {
  const raw: ModelMessage[] = [];
  const shownText = new Map<string, string>();
  for (const entry of entries) {
    if (entry.kind === 'user') raw.push({ role: 'user', content: entry.text });
    else if (entry.kind === 'event' && entry.event.type === 'TEXT_MESSAGE_CONTENT') {
      const { messageId, delta } = entry.event;
      if (typeof messageId === 'string' && typeof delta === 'string') shownText.set(messageId, (shownText.get(messageId) ?? '') + delta);
    } else if (entry.kind === 'message') raw.push(withLoggedText(entry, shownText));
  }
  const repaired: ModelMessage[] = [];
  raw.forEach((message, index) => {
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
  return repaired;
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
