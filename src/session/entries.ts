import type { ModelMessage } from '@ai-sdk/provider-utils';

/**
 * An event as the log keeps it. The kernel writes its own events here; the store below it keeps
 * them as data and reads only `type` (and a text message's fields, to rebuild the transcript).
 */
export interface LoggedEvent {
  type: string;
  [field: string]: unknown;
}

/**
 * An image a user message carried, as the log keeps it: a reference and what it is, never its
 * bytes, so events.jsonl stays small however many images a session holds. The bytes are a state
 * of the session (`attachment-<ref>.json` beside the log in the agent folder, a row of auggy_state
 * in PostgreSQL), written before the message that refers to them.
 */
export interface AttachmentRef {
  /** The bytes' SHA-256 (hex, 32 characters): the same image sent twice is kept once. */
  ref: string;
  mediaType: string;
  size: number;
  name?: string;
}

/** One line of events.jsonl. The first line is always the header. */
export type SessionEntry =
  | { kind: 'header'; version: 1; sessionId: string; agentId?: string; agentName: string; createdAt: string }
  /**
   * A message to the agent. `messageId`: the client's id for it (AG-UI), so a history it sends
   * back is recognised; `by`: set when an augment, not the person, wrote it (a goal's
   * continuation); `attachments`: the images it carried, by reference (see attachments.ts).
   */
  | { kind: 'user'; turnId: string; text: string; at: string; messageId?: string; by?: string; attachments?: AttachmentRef[] }
  | { kind: 'event'; turnId?: string; event: LoggedEvent; at: string }
  /**
   * A message of the model transcript (assistant or tool); the transcript is rebuilt from these.
   * `textFrom`: the message's text is not repeated here; it is the text of these messages'
   * TEXT_MESSAGE_CONTENT events earlier in the log, joined in order, as its first part.
   */
  | { kind: 'message'; turnId: string; message: ModelMessage; messageId?: string; textFrom?: string[] }
  /**
   * A compaction: from here on the transcript starts with `summary` (when there is one) in place
   * of every message before the turn `keptFromTurn` (its first user message's turnId; absent, every
   * message before this entry), and the tool calls in `prunedCalls` have a short note for their
   * output. The replaced entries stay in the log above it: the full history is never lost.
   */
  | {
      kind: 'compaction';
      turnId?: string;
      at: string;
      reason: 'auto' | 'overflow' | 'command';
      summary?: string;
      keptFromTurn?: string;
      prunedCalls?: string[];
      /** How many transcript messages the summary took the place of. */
      replacedMessages: number;
      tokensBefore: number;
      tokensAfter: number;
    }
  /** Facts kept for tracing only, never sent to the model (request_input's reason, answers). */
  | { kind: 'record'; turnId?: string; name: string; data: Record<string, unknown>; at: string };

/**
 * The record a folder session appends once when the disk refused one of its lines (a full disk):
 * the lines after it were not written, so the turn it belongs to ended there, failed.
 */
export const LOG_WRITE_REFUSED = 'log-write-refused';

export type SessionHeader = Extract<SessionEntry, { kind: 'header' }>;
