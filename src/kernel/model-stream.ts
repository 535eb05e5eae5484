import { InvalidPromptError, TypeValidationError, type LanguageModelV3, type LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { InvalidToolInputError, JSONParseError, NoOutputGeneratedError, NoSuchToolError, modelMessageSchema, type FinishReason, type LanguageModelUsage, type ModelMessage, type ToolSet } from 'ai';
import { passesMessageSchema } from './model-message-check.js';
import { asLanguageModelUsage, convertToLanguageModelPrompt, prepareCallSettings, prepareRetries, prepareToolsAndToolChoice, standardizePrompt } from 'ai/internal';

/** What one model call streams, in the shapes the AI SDK's `streamText` gives its full stream. */
export type ModelStreamPart =
  | { type: 'text-start'; id: string }
  | { type: 'text-delta'; id: string; text: string }
  | { type: 'text-end'; id: string }
  | { type: 'tool-input-start'; id: string; toolName: string }
  | { type: 'tool-input-delta'; id: string; delta: string }
  | { type: 'tool-input-end'; id: string }
  | { type: 'tool-call'; toolCallId: string; toolName: string; input: unknown; invalid?: true; error?: unknown }
  | { type: 'finish-step'; finishReason: FinishReason; rawFinishReason: string | undefined; usage: LanguageModelUsage }
  | { type: 'error'; error: unknown }
  | { type: 'abort' };

export interface ModelCall {
  model: LanguageModelV3;
  system: string;
  /** The conversation so far; or `prompt`, one user message. */
  messages?: ModelMessage[];
  prompt?: string;
  tools?: ToolSet;
  signal: AbortSignal;
  maxRetries: number;
  maxOutputTokens?: number;
}

const NO_USAGE: LanguageModelUsage = {
  inputTokens: undefined,
  inputTokenDetails: { noCacheTokens: undefined, cacheReadTokens: undefined, cacheWriteTokens: undefined },
  outputTokens: undefined,
  outputTokenDetails: { textTokens: undefined, reasoningTokens: undefined },
  totalTokens: undefined,
};

/** Parts that mean the model said something (the SDK's own list): a stream with none and no finish is an empty reply. */
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
 * Messages already found to be ModelMessages. A transcript's messages are never changed once
 * made, and every round (and every later turn) sends them all again; the SDK's check rebuilt its
 * schema and walked each of them on every call, about a tenth of a serve run's CPU.
 */
const checkedMessages = new WeakSet<ModelMessage>();

/**
 * The SDK's `standardizePrompt`, checking each message once: the same checks, the same error
 * (InvalidPromptError) for a message that is not a ModelMessage. A string prompt becomes one user
 * message, which needs no check. Anything unusual (no messages, a system message among them)
 * goes through the SDK's own function, warnings and all.
 */
async function checkedPrompt(call: ModelCall): Promise<{ system: string; messages: ModelMessage[] }> {
  if (call.prompt !== undefined) return { system: call.system, messages: [{ role: 'user', content: call.prompt }] };
  const messages = call.messages ?? [];
  if (messages.length === 0 || messages.some((message) => message.role === 'system')) {
    const standardized = await standardizePrompt({ system: call.system, messages });
    return { system: call.system, messages: standardized.messages };
  }
  for (const message of messages) {
    if (checkedMessages.has(message) || passesMessageSchema(message)) continue;
    const checked = modelMessageSchema.safeParse(message);
    if (!checked.success) {
      throw new InvalidPromptError({
        prompt: undefined,
        message: 'The messages do not match the ModelMessage[] schema.',
        cause: TypeValidationError.wrap({ value: message, cause: checked.error }),
      });
    }
    checkedMessages.add(message);
  }
  return { system: call.system, messages };
}

/** JSON as the SDK parses a model's tool input: keys that could reach an object's prototype are refused. */
function parseToolInput(text: string): unknown {
  try {
    return JSON.parse(text, (key, value: unknown) => {
      if (key === '__proto__' || (key === 'constructor' && typeof value === 'object' && value !== null && 'prototype' in value)) {
        throw new SyntaxError('Object contains forbidden prototype property');
      }
      return value;
    });
  } catch (error) {
    throw new JSONParseError({ text, cause: error });
  }
}

/**
 * A finished tool call as `streamText` reports it: the input parsed, or `invalid` with the reason
 * (a tool the call did not offer, input that is not JSON). The kernel's tools carry JSON Schemas
 * without a validator, so JSON is all there is to check here; each tool's zod schema checks the rest.
 */
function parsedToolCall(part: Extract<LanguageModelV3StreamPart, { type: 'tool-call' }>, tools: ToolSet): Extract<ModelStreamPart, { type: 'tool-call' }> {
  const { toolCallId, toolName, input } = part;
  try {
    if (tools[toolName] === undefined) throw new NoSuchToolError({ toolName, availableTools: Object.keys(tools) });
    try {
      return { type: 'tool-call', toolCallId, toolName, input: input.trim() === '' ? {} : parseToolInput(input) };
    } catch (cause) {
      throw new InvalidToolInputError({ toolName, toolInput: input, cause });
    }
  } catch (error) {
    let kept: unknown = input;
    try {
      kept = parseToolInput(input);
    } catch {
      // Not JSON: the call keeps its raw text, which the kernel reports back to the model.
    }
    return { type: 'tool-call', toolCallId, toolName, input: kept, invalid: true, error };
  }
}

/**
 * One streamed model call, built from the AI SDK's own parts (`ai/internal`): its prompt checks
 * and conversion, its call settings, its tool definitions and its retries with backoff, then the
 * provider's stream read directly. `streamText` does the same and then pipes every chunk through
 * seven web streams, telemetry spans and result promises the kernel never reads: measured on
 * Node 20, 4.3-4.8 ms of CPU per call against 0.5-0.6 ms for this (docs/performance.md), and a
 * serve run makes three calls.
 *
 * Errors the call raises before streaming (a bad prompt, a refused request after its retries)
 * are thrown; errors the provider streams come as `error` parts; an abort ends with `abort`.
 */
export async function* streamModel(call: ModelCall): AsyncGenerator<ModelStreamPart> {
  const { signal, model } = call;
  const { retry } = prepareRetries({ maxRetries: call.maxRetries, abortSignal: signal });
  const settings = prepareCallSettings({ maxOutputTokens: call.maxOutputTokens });
  const prompt = await convertToLanguageModelPrompt({ prompt: await checkedPrompt(call), supportedUrls: await model.supportedUrls, download: undefined, abortSignal: signal });
  const tools = call.tools ?? {};
  const prepared = await prepareToolsAndToolChoice({ tools, toolChoice: undefined, activeTools: undefined });
  const { stream } = await retry(() => model.doStream({ ...settings, tools: prepared.tools, toolChoice: prepared.toolChoice, prompt, abortSignal: signal }));

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
          yield parsedToolCall(part, tools);
          break;
        case 'finish':
          finish = { type: 'finish-step', finishReason: part.finishReason.unified, rawFinishReason: part.finishReason.raw, usage: asLanguageModelUsage(part.usage) };
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
    yield { type: 'error', error: new NoOutputGeneratedError({ message: 'No output generated. The model stream ended without a finish chunk.' }) };
    return;
  }
  // As the SDK: a stream that ends without the provider's finish still ends its step (as `error`
  // after an error part, `other` otherwise); the provider's own finish, when it came, has the say.
  yield finish ?? { type: 'finish-step', finishReason: sawError ? 'error' : 'other', rawFinishReason: undefined, usage: NO_USAGE };
}
