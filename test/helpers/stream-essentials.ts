import { NoOutputGeneratedError } from 'ai';
import { NoModelOutputError } from '../../src/kernel/model-stream.js';

/** An error as its message; the two ways of saying a stream brought nothing at all as one. */
function errorText(error: unknown): unknown {
  if (NoOutputGeneratedError.isInstance(error) || error instanceof NoModelOutputError) return 'no output';
  return error instanceof Error ? error.message : error;
}

/**
 * The fields the kernel reads from a part of `streamText`'s full stream or of `streamModel`,
 * errors as their messages, so the two compare; undefined for a part the kernel does not read.
 * A tool call's invalidity compares, not its wording: the kernel says it in its own words.
 */
export function streamEssentials(part: Record<string, unknown>): Record<string, unknown> | undefined {
  switch (part.type) {
    case 'text-start':
    case 'text-end':
    case 'tool-input-end':
      return { type: part.type, id: part.id };
    case 'text-delta':
      return { type: part.type, id: part.id, text: part.text };
    case 'tool-input-start':
      return { type: part.type, id: part.id, toolName: part.toolName };
    case 'tool-input-delta':
      return { type: part.type, id: part.id, delta: part.delta };
    case 'tool-call':
      return {
        type: part.type,
        toolCallId: part.toolCallId,
        toolName: part.toolName,
        input: part.input,
        invalid: part.invalid === true || part.invalidReason !== undefined,
      };
    case 'finish-step': {
      const spent = part.usage as { inputTokens?: number; outputTokens?: number };
      return {
        type: part.type,
        finishReason: part.finishReason,
        rawFinishReason: part.rawFinishReason,
        inputTokens: spent.inputTokens,
        outputTokens: spent.outputTokens,
      };
    }
    case 'error':
      return { type: part.type, error: errorText(part.error) };
    case 'abort':
      return { type: part.type };
    default:
      return undefined;
  }
}
