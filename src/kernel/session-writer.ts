import type { ModelMessage } from '@ai-sdk/provider-utils';
import type { SessionEntry } from '../session/entries.js';
import type { KernelEvent } from './events.js';

type Streamed = Extract<KernelEvent, { type: 'TEXT_MESSAGE_CONTENT' | 'TOOL_CALL_ARGS' }>;

function streamKey(event: Streamed): string {
  return event.type === 'TEXT_MESSAGE_CONTENT' ? `text:${event.messageId}` : `args:${event.toolCallId}`;
}

function joined(first: Streamed, deltas: string[]): Streamed {
  return { ...first, delta: deltas.join('') };
}

/**
 * Writes a conversation's events to its session log. A model streams a reply as many small
 * deltas; writing each one costs a file append and repeats the entry's framing, so the deltas of
 * one text message (or one tool call's arguments) are held in memory and written as a single
 * entry when the message ends or any other event comes. Crash safety holds at that grain: a
 * `kill -9` mid-message loses that message's unfinished text, never the readability of the log.
 *
 * The assistant message that follows repeats the text the person saw; it is written with a
 * reference to those text entries instead, so a long reply is stored once.
 */
export class SessionWriter {
  private pending: { key: string; first: Streamed; deltas: string[]; turnId: string | undefined; at: string } | undefined;
  /** Text messages written since the last transcript message, in order: what it may refer to. */
  private unclaimedText: { messageId: string; text: string }[] = [];

  constructor(private readonly write: (entry: SessionEntry) => void) {}

  event(event: KernelEvent, turnId: string | undefined): void {
    if (event.type === 'TEXT_MESSAGE_CONTENT' || event.type === 'TOOL_CALL_ARGS') {
      const key = streamKey(event);
      if (this.pending?.key === key) {
        this.pending.deltas.push(event.delta);
        return;
      }
      this.flush();
      this.pending = { key, first: event, deltas: [event.delta], turnId, at: new Date().toISOString() };
      return;
    }
    this.flush();
    this.write({ kind: 'event', turnId, event, at: new Date().toISOString() });
  }

  /** A transcript message; its text is stored once when the log already holds it. */
  message(message: ModelMessage, turnId: string, messageId?: string): void {
    this.flush();
    const claimed = this.unclaimedText;
    this.unclaimedText = [];
    const textFrom = [...new Set(claimed.map((part) => part.messageId))];
    if (textFrom.length > 0 && message.role === 'assistant' && typeof message.content !== 'string') {
      const [first, ...rest] = message.content;
      // What a reader rebuilds from the references: each message's text, message after message.
      const rebuilt = textFrom.map((id) => claimed.flatMap((part) => (part.messageId === id ? [part.text] : [])).join('')).join('');
      if (first?.type === 'text' && first.text === rebuilt && !rest.some((part) => part.type === 'text')) {
        this.write({ kind: 'message', turnId, message: { ...message, content: rest }, ...(messageId !== undefined ? { messageId } : {}), textFrom });
        return;
      }
    }
    this.write({ kind: 'message', turnId, message, ...(messageId !== undefined ? { messageId } : {}) });
  }

  /** Any other entry (the user's message, a record): written in order after what is held. */
  entry(entry: SessionEntry): void {
    this.flush();
    // A new turn: its messages never refer to the text of an earlier one.
    if (entry.kind === 'user') this.unclaimedText = [];
    this.write(entry);
  }

  /** Writes what is held; called at each turn's end so nothing stays in memory between turns. */
  flush(): void {
    const held = this.pending;
    if (!held) return;
    this.pending = undefined;
    const event = joined(held.first, held.deltas);
    if (event.type === 'TEXT_MESSAGE_CONTENT') this.unclaimedText.push({ messageId: event.messageId, text: event.delta });
    this.write({ kind: 'event', turnId: held.turnId, event, at: held.at });
  }
}
