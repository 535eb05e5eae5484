import { randomUUID } from 'node:crypto';
import { type Message, type Part, Role, type SendMessageRequest, type Task } from '@a2a-js/sdk';

/** A message to the remote agent, on its task and context when it continues one. */
export function request(parts: Part[], on: { taskId?: string; contextId?: string }): SendMessageRequest {
  const message: Message = {
    messageId: randomUUID(),
    role: Role.ROLE_USER,
    parts,
    contextId: on.contextId ?? '',
    taskId: on.taskId ?? '',
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
  return { tenant: '', message, configuration: undefined, metadata: undefined };
}

export function textsOf(parts: readonly Part[]): string[] {
  return parts.flatMap((part) => (part.content?.$case === 'text' && part.content.value.trim() !== '' ? [part.content.value] : []));
}

/** What the remote agent said in a task: its artifacts' text, in order. */
export function replyOf(task: Task): string {
  return task.artifacts.flatMap((artifact) => textsOf(artifact.parts)).join('\n\n');
}

/** A data part that asks for an object's answers: a JSON Schema with properties. */
export interface AskedForm {
  schema: { properties: Record<string, unknown>; required?: string[] };
  metadata: Record<string, unknown>;
}

export function formsOf(parts: readonly Part[]): AskedForm[] {
  return parts.flatMap((part) => {
    if (part.content?.$case !== 'data') return [];
    const value = part.content.value as unknown;
    if (typeof value !== 'object' || value === null) return [];
    const properties = (value as { properties?: unknown }).properties;
    if (typeof properties !== 'object' || properties === null) return [];
    const required = (value as { required?: unknown }).required;
    return [
      {
        schema: { properties: properties as Record<string, unknown>, ...(Array.isArray(required) ? { required: required.map(String) } : {}) },
        metadata: part.metadata ?? {},
      },
    ];
  });
}
