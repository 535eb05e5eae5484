import type { ModelMessage } from 'ai';

// The AI SDK checks every message against its ModelMessage schema (zod) before a call. The
// kernel's own messages are plain text, tool calls and tool results; walking those through the
// schema's unions cost ~0.4 ms apiece, most of what a serve run spent on prompts. This is a
// fast path for exactly those shapes: it says true only for a message the schema accepts
// (test/kernel/model-message-check.test.ts holds it to the schema), and false for anything else,
// which then goes through the schema itself, so an odd message is judged by the SDK as before.

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** A JSON value as the schema's jsonValueSchema takes it: no NaN or Infinity, no class instances. */
function isJsonValue(value: unknown, depth = 0): boolean {
  if (depth > 64) return false;
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every((item) => isJsonValue(item, depth + 1));
  if (isPlainObject(value)) return Object.values(value).every((item) => item === undefined || isJsonValue(item, depth + 1));
  return false;
}

function isTextPart(part: Record<string, unknown>): boolean {
  return part.type === 'text' && typeof part.text === 'string' && part.providerOptions === undefined;
}

function isToolCallPart(part: Record<string, unknown>): boolean {
  return (
    part.type === 'tool-call' &&
    typeof part.toolCallId === 'string' &&
    typeof part.toolName === 'string' &&
    part.providerOptions === undefined &&
    (part.providerExecuted === undefined || typeof part.providerExecuted === 'boolean')
  );
}

function isToolResultPart(part: Record<string, unknown>): boolean {
  if (part.type !== 'tool-result' || typeof part.toolCallId !== 'string' || typeof part.toolName !== 'string' || part.providerOptions !== undefined) return false;
  const output = part.output;
  if (!isPlainObject(output) || output.providerOptions !== undefined) return false;
  if (output.type === 'text' || output.type === 'error-text') return typeof output.value === 'string';
  if (output.type === 'json' || output.type === 'error-json') return isJsonValue(output.value);
  return false;
}

function everyPart(content: unknown, accepts: (part: Record<string, unknown>) => boolean): boolean {
  return Array.isArray(content) && content.every((part) => isPlainObject(part) && accepts(part));
}

/** True when the message is of a shape the ModelMessage schema surely accepts; false says "ask the schema". */
export function passesMessageSchema(message: ModelMessage): boolean {
  if (!isPlainObject(message) || message.providerOptions !== undefined) return false;
  switch (message.role) {
    case 'user':
      return typeof message.content === 'string' || everyPart(message.content, isTextPart);
    case 'assistant':
      return typeof message.content === 'string' || everyPart(message.content, (part) => isTextPart(part) || isToolCallPart(part));
    case 'tool':
      return everyPart(message.content, isToolResultPart);
    default:
      return false;
  }
}
