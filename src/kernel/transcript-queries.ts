import type { ModelMessage } from '@ai-sdk/provider-utils';
import type { SessionEntry } from '../session/entries.js';
import { openToolCalls } from '../session/transcript.js';
import { loggedKernelEvent } from './events.js';
import type { RequestedToolCall } from './model-step.js';

/** Questions a conversation asks of its transcript and its log, answered without changing either. */

/** The calls among `ids` still open in the transcript, as the model made them, to be run again. */
export function openCallsAmong(messages: readonly ModelMessage[], ids: readonly string[]): RequestedToolCall[] {
  return openToolCalls(messages)
    .filter((call) => ids.includes(call.toolCallId))
    .map(({ toolCallId, toolName, input }) => ({ toolCallId, toolName, input }));
}

/** Every message id the log knows: the client's for user messages, the stream's for replies and tool calls. */
export function knownMessageIds(entries: readonly SessionEntry[]): Set<string> {
  const ids = new Set<string>();
  for (const entry of entries) {
    if ((entry.kind === 'user' || entry.kind === 'message') && entry.messageId !== undefined) ids.add(entry.messageId);
    if (entry.kind === 'event') {
      const event = loggedKernelEvent(entry.event);
      if (event.type === 'TEXT_MESSAGE_START' || event.type === 'TOOL_CALL_RESULT') ids.add(event.messageId);
      if (event.type === 'TOOL_CALL_START') ids.add(event.toolCallId);
    }
  }
  return ids;
}
