import type { ModelMessage } from 'ai';
import type { KernelEvent } from '../kernel/events.js';

/** One line of events.jsonl. The first line is always the header. */
export type SessionEntry =
  | { kind: 'header'; version: 1; sessionId: string; agentId?: string; agentName: string; createdAt: string }
  /** `messageId`: the client's id for the message (AG-UI), so a history it sends back is recognised. */
  | { kind: 'user'; turnId: string; text: string; at: string; messageId?: string }
  | { kind: 'event'; turnId?: string; event: KernelEvent; at: string }
  /** A message of the model transcript (assistant or tool); the transcript is rebuilt from these. */
  | { kind: 'message'; turnId: string; message: ModelMessage; messageId?: string }
  /** Facts kept for tracing only, never sent to the model (request_input's reason, answers). */
  | { kind: 'record'; turnId?: string; name: string; data: Record<string, unknown>; at: string };

export type SessionHeader = Extract<SessionEntry, { kind: 'header' }>;
