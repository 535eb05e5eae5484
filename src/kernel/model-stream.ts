import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3FinishReason,
  LanguageModelV3FunctionTool,
  LanguageModelV3StreamPart,
  LanguageModelV3Usage,
} from '@ai-sdk/provider';
import type { ModelMessage } from '@ai-sdk/provider-utils';
import { withRetries } from '../model/call-retries.js';
import { toLanguageModelPrompt } from './model-prompt.js';

/** Why the model stopped: `stop`, `length` (the output limit), `tool-calls`, `content-filter`, `error`, `other`. */
export type FinishReason = LanguageModelV3FinishReason['unified'];

/** Tokens one call spent, when the provider said. */
export interface ModelUsage {
  inputTokens: number | undefined;
  outputTokens: number | undefined;
}

/** A tool as the provider is offered it: its name, what it is for, its input's JSON Schema. */
export type ModelTool = LanguageModelV3FunctionTool;

/** What one model call streams: the provider's parts the kernel reads, tool calls parsed. */
export type ModelStreamPart =
  | { type: 'text-start'; id: string }
  | { type: 'text-delta'; id: string; text: string }
  | { type: 'text-end'; id: string }
  | { type: 'tool-input-start'; id: string; toolName: string }
  | { type: 'tool-input-delta'; id: string; delta: string }
  | { type: 'tool-input-end'; id: string }
  /** `invalidReason` when the call names no tool that was offered or its input is not JSON. */
  | { type: 'tool-call'; toolCallId: string; toolName: string; input: unknown; invalidReason?: string }
  | { type: 'finish-step'; finishReason: FinishReason; rawFinishReason: string | undefined; usage: ModelUsage }
  | { type: 'error'; error: unknown }
  | { type: 'abort' };

export interface ModelCall {
  model: LanguageModelV3;
  system: string;
  /** The conversation so far; or `prompt`, one user message. */
  messages?: readonly ModelMessage[];
  prompt?: string;
  tools?: readonly ModelTool[];
  signal: AbortSignal;
  /** Tries after the first for a refusal the provider marks retryable. */
  maxRetries: number;
  maxOutputTokens?: number;
  temperature?: number;
  /** Waits between retries; a test passes one that counts the waits. */
  retryWait?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** The provider's stream closed before it said anything or finished: nothing came back at all. */
export class NoModelOutputError extends Error {
  constructor() {
    super('the model stream ended without any output or a finish');
  }
}

/** Parts that mean the model said something: a stream with none and no finish is no reply at all. */
const OUTPUT_PARTS = new Set<LanguageModelV3StreamPart['type']>([
  'file',
  'source',
  'text-start',
  'text-end',
  'text-delta',
  'reasoning-start',
  'reasoning-end',
  'reasoning-delta',
  'tool-input-start',
  'tool-input-end',
  'tool-input-delta',
  'tool-approval-request',
  'tool-call',
  'tool-result',
]);

/**
 * Messages already checked to be ones the kernel sends. A transcript's messages are never
 * changed once made, and every round (and every later turn) sends them all again.
 */
const checkedMessages = new WeakSet<ModelMessage>();

/** A model's tool input as JSON; keys that could reach an object's prototype are refused. */
function parseToolInput(text: string): unknown {
  return JSON.parse(text, (key, value: unknown) => {
    if (key === '__proto__' || (key === 'constructor' && typeof value === 'object' && value !== null && 'prototype' in value)) {
      throw new SyntaxError('the input names an object prototype');
    }
    return value;
  });
}

/**
 * A finished tool call: its input parsed, or an `invalidReason` (a tool the call did not offer,
 * input that is not JSON), which the kernel reports back to the model as the call's result. The
 * tools carry JSON Schemas only, so JSON is all there is to check here; each tool's zod schema
 * checks the rest when it runs.
 */
function parsedToolCall(
  part: Extract<LanguageModelV3StreamPart, { type: 'tool-call' }>,
  offered: ReadonlySet<string>,
): Extract<ModelStreamPart, { type: 'tool-call' }> {
  const { toolCallId, toolName, input } = part;
  if (input.trim() === '')
    return offered.has(toolName)
      ? { type: 'tool-call', toolCallId, toolName, input: {} }
      : { type: 'tool-call', toolCallId, toolName, input: {}, invalidReason: `no tool named "${toolName}" was offered` };
  let parsed: unknown;
  try {
    parsed = parseToolInput(input);
  } catch (error) {
    // Not JSON: the call keeps its raw text, and the reason is the parser's.
    return { type: 'tool-call', toolCallId, toolName, input, invalidReason: error instanceof Error ? error.message : String(error) };
  }
  if (!offered.has(toolName)) return { type: 'tool-call', toolCallId, toolName, input: parsed, invalidReason: `no tool named "${toolName}" was offered` };
  return { type: 'tool-call', toolCallId, toolName, input: parsed };
}

function usageOf(usage: LanguageModelV3Usage): ModelUsage {
  return { inputTokens: usage.inputTokens.total, outputTokens: usage.outputTokens.total };
}

/** What the provider is sent: the prompt, the tools (left to the model to choose), the output limit. */
function callOptions(call: ModelCall): LanguageModelV3CallOptions {
  const messages: readonly ModelMessage[] = call.prompt !== undefined ? [{ role: 'user', content: call.prompt }] : (call.messages ?? []);
  const tools = call.tools !== undefined && call.tools.length > 0 ? [...call.tools] : undefined;
  return {
    prompt: toLanguageModelPrompt(call.system, messages, checkedMessages),
    tools,
    toolChoice: tools ? { type: 'auto' } : undefined,
    maxOutputTokens: call.maxOutputTokens,
    ...(call.temperature !== undefined ? { temperature: call.temperature } : {}),
    abortSignal: call.signal,
  };
}

/**
 * One streamed model call, made on the provider's `LanguageModelV3` contract: the conversation
 * converted to its prompt, the call retried while the provider marks the refusal retryable
 * (honouring the server's retry-after), then its stream read part by part. Nothing between:
 * the AI SDK's `streamText` piped every chunk through seven web streams, telemetry spans and
 * result promises the kernel never reads, 4.3-4.8 ms of CPU per call (docs/performance.md).
 *
 * Errors the call raises before streaming (a message that cannot be sent, a refused request
 * after its retries) are thrown; errors the provider streams come as `error` parts; an abort
 * ends with `abort`.
 */
export async function* streamModel(call: ModelCall): AsyncGenerator<ModelStreamPart> {
  const { signal, model } = call;
  const options = callOptions(call);
  const offered = new Set((call.tools ?? []).map((tool) => tool.name));
  const { stream } = await withRetries(() => model.doStream(options), { maxRetries: call.maxRetries, signal, wait: call.retryWait });

  const reader = stream.getReader();
  let finish: Extract<ModelStreamPart, { type: 'finish-step' }> | undefined;
  let sawError = false;
  let sawOutput = false;
  try {
    for (;;) {
      if (signal.aborted) {
        yield { type: 'abort' };
        return;
      }
      const { done, value: part } = await reader.read();
      if (done) break;
      if (OUTPUT_PARTS.has(part.type)) sawOutput = true;
      switch (part.type) {
        case 'text-start':
        case 'text-end':
          yield { type: part.type, id: part.id };
          break;
        case 'text-delta':
          if (part.delta.length > 0) yield { type: 'text-delta', id: part.id, text: part.delta };
          break;
        case 'tool-input-start':
          yield { type: 'tool-input-start', id: part.id, toolName: part.toolName };
          break;
        case 'tool-input-delta':
          yield { type: 'tool-input-delta', id: part.id, delta: part.delta };
          break;
        case 'tool-input-end':
          yield { type: 'tool-input-end', id: part.id };
          break;
        case 'tool-call':
          yield parsedToolCall(part, offered);
          break;
        case 'finish':
          finish = { type: 'finish-step', finishReason: part.finishReason.unified, rawFinishReason: part.finishReason.raw, usage: usageOf(part.usage) };
          break;
        case 'error':
          sawError = true;
          yield { type: 'error', error: part.error };
          break;
        default:
          // Reasoning, sources, files, metadata: nothing the kernel shows or keeps.
          break;
      }
    }
  } finally {
    // Stopped early (an abort, a consumer that left): the provider stops streaming too.
    reader.cancel().catch(() => undefined);
  }
  if (finish === undefined && !sawError && !sawOutput) {
    yield { type: 'error', error: new NoModelOutputError() };
    return;
  }
  // A stream that ends without the provider's finish still ends its step (as `error` after an
  // error part, `other` otherwise); the provider's own finish, when it came, has the say.
  yield finish ?? {
    type: 'finish-step',
    finishReason: sawError ? 'error' : 'other',
    rawFinishReason: undefined,
    usage: { inputTokens: undefined, outputTokens: undefined },
  };
}
