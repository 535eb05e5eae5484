import { randomUUID } from 'node:crypto';
import { type Message, type Part, Role } from '@a2a-js/sdk';

/** A text part, as the SDK's objects hold one. */
export function textPart(text: string): Part {
  return { content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' };
}

/** A data part: a JSON value, with what it answers or describes in `metadata`. */
export function dataPart(value: unknown, metadata?: Record<string, unknown>): Part {
  return { content: { $case: 'data', value }, metadata, filename: '', mediaType: 'application/json' };
}

/** A message from this agent on a task. */
export function agentMessage(taskId: string, contextId: string, parts: Part[]): Message {
  return { messageId: randomUUID(), contextId, taskId, role: Role.ROLE_AGENT, parts, metadata: undefined, extensions: [], referenceTaskIds: [] };
}

/** The text of a message: its text parts, joined by blank lines. */
export function messageText(message: Message): string {
  return message.parts
    .flatMap((part) => (part.content?.$case === 'text' ? [part.content.value] : []))
    .join('\n\n')
    .trim();
}

/** A message's data parts, each with its metadata. */
export function messageData(message: Message): { value: unknown; metadata: Record<string, unknown> }[] {
  return message.parts.flatMap((part) => (part.content?.$case === 'data' ? [{ value: part.content.value as unknown, metadata: part.metadata ?? {} }] : []));
}
