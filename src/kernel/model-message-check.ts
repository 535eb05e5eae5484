import type { ModelMessage } from '@ai-sdk/provider-utils';

// Before a call every message is checked to be one the kernel sends: plain text, the person's
// images, tool calls and tool results of text or JSON. A transcript read back from a session file is only JSON, so a
// damaged one must be refused here, not half sent. The AI SDK's ModelMessage schema (zod) did
// this walking its unions, ~0.4 ms a message; these plain checks accept a subset of what that
// schema accepts (test/kernel/model-message-check.test.ts holds them to it) and refuse the rest.

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

/** An image the person sent, as the transcript holds it: its bytes (read from the session), never a URL to fetch. */
function isImageFilePart(part: Record<string, unknown>): boolean {
  return (
    part.type === 'file' &&
    part.data instanceof Uint8Array &&
    typeof part.mediaType === 'string' &&
    part.mediaType.startsWith('image/') &&
    (part.filename === undefined || typeof part.filename === 'string') &&
    part.providerOptions === undefined
  );
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
  if (part.type !== 'tool-result' || typeof part.toolCallId !== 'string' || typeof part.toolName !== 'string' || part.providerOptions !== undefined)
    return false;
  const output = part.output;
  if (!isPlainObject(output) || output.providerOptions !== undefined) return false;
  if (output.type === 'text' || output.type === 'error-text') return typeof output.value === 'string';
  if (output.type === 'json' || output.type === 'error-json') return isJsonValue(output.value);
  return false;
}

function everyPart(content: unknown, accepts: (part: Record<string, unknown>) => boolean): boolean {
  return Array.isArray(content) && content.every((part) => isPlainObject(part) && accepts(part));
}

/** True when the message is of a shape the kernel sends (and the AI SDK's ModelMessage schema accepts). */
export function isSendableMessage(message: ModelMessage): boolean {
  if (!isPlainObject(message) || message.providerOptions !== undefined) return false;
  switch (message.role) {
    case 'user':
      return typeof message.content === 'string' || everyPart(message.content, (part) => isTextPart(part) || isImageFilePart(part));
    case 'assistant':
      return typeof message.content === 'string' || everyPart(message.content, (part) => isTextPart(part) || isToolCallPart(part));
    case 'tool':
      return everyPart(message.content, isToolResultPart);
    default:
      return false;
  }
}
