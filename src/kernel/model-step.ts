import { InvalidResponseDataError, type LanguageModelV3 } from '@ai-sdk/provider';
import type { ModelMessage } from '@ai-sdk/provider-utils';
import { StreamCutOffError } from '../model/describe-error.js';
import { randomHex } from '../session/ids.js';
import type { z } from 'zod';
import type { EmitEvent } from './events.js';
import { streamModel, type FinishReason, type ModelTool } from './model-stream.js';
import type { KernelTool } from './tool.js';
import { wireSchema } from './wire-schema.js';

export type { FinishReason } from './model-stream.js';

export interface RequestedToolCall {
  toolCallId: string;
  toolName: string;
  input: unknown;
  /** Set when the model's call could not be parsed or names no known tool. */
  invalidReason?: string;
}

export interface StepUsage {
  inputTokens: number;
  outputTokens: number;
}

export interface StepOutcome {
  text: string;
  toolCalls: RequestedToolCall[];
  usage: StepUsage;
  /** Why the model stopped: `stop`, `length` (the output limit), `tool-calls`, `content-filter`, `error`, `other`. */
  finishReason: FinishReason;
  /** Characters of reply that arrived (text and tool-call arguments), for saying where a cut fell. */
  receivedChars: number;
  error?: unknown;
  aborted: boolean;
}

export interface ModelStepRequest {
  model: LanguageModelV3;
  system: string;
  messages: ModelMessage[];
  tools: KernelTool[];
  signal: AbortSignal;
  emit: EmitEvent;
  maxRetries: number;
  /** The reply's output limit, sent on every call. */
  maxOutputTokens?: number;
  temperature?: number;
}

export function newMessageId(): string {
  return `msg_${randomHex(6)}`;
}

/** Freezes a JSON Schema all the way down, so a memo handed to every call stays as it was made. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/**
 * Each tool's wire schema, made once per process for each zod schema: converting zod to JSON
 * Schema every round was a tenth of a serve run's CPU, and copying the result for every call
 * most of what was left of it; most schemas are module constants shared by every conversation.
 * The JSON Schema is frozen, since every call shares it.
 */
const wireSchemas = new WeakMap<z.ZodType, ModelTool['inputSchema']>();

function wireSchemaOf(schema: z.ZodType): ModelTool['inputSchema'] {
  let inputSchema = wireSchemas.get(schema);
  if (!inputSchema) {
    inputSchema = deepFreeze(wireSchema(schema)) as ModelTool['inputSchema'];
    wireSchemas.set(schema, inputSchema);
  }
  return inputSchema;
}

function wireTool(kernelTool: KernelTool): ModelTool {
  // No validator goes with it: the kernel checks input itself so a bad call becomes a correctable tool error.
  return {
    type: 'function',
    name: kernelTool.name,
    description: kernelTool.description,
    // Made when the provider reads it, as every provider does to write its request: the scripted
    // model never does, and converting each tool's schema was a twentieth of `run --print`'s start.
    get inputSchema() {
      return wireSchemaOf(kernelTool.inputSchema);
    },
  };
}

/** The stream closed cleanly without the provider's finish chunk (Chat Completions servers). */
function endedUnfinished(error: unknown): boolean {
  return InvalidResponseDataError.isInstance(error) && /ended without a finish reason/i.test(error.message);
}

/** One inference: streams the model's reply into kernel events and collects its tool calls. */
export async function runModelStep(request: ModelStepRequest): Promise<StepOutcome> {
  const { emit, signal } = request;
  const outcome: StepOutcome = { text: '', toolCalls: [], usage: { inputTokens: 0, outputTokens: 0 }, finishReason: 'other', receivedChars: 0, aborted: false };
  const openText = new Map<string, string>();
  const startedCalls = new Set<string>();
  const endedCalls = new Set<string>();
  let lastTextMessage: string | undefined;

  const closeOpenText = () => {
    for (const messageId of openText.values()) emit({ type: 'TEXT_MESSAGE_END', messageId });
    openText.clear();
  };

  try {
    const parts = streamModel({
      model: request.model,
      system: request.system,
      messages: request.messages,
      tools: request.tools.map(wireTool),
      signal,
      maxRetries: request.maxRetries,
      maxOutputTokens: request.maxOutputTokens,
      temperature: request.temperature,
    });
    for await (const part of parts) {
      switch (part.type) {
        case 'text-start': {
          const messageId = newMessageId();
          openText.set(part.id, messageId);
          lastTextMessage = messageId;
          emit({ type: 'TEXT_MESSAGE_START', messageId, role: 'assistant' });
          break;
        }
        case 'text-delta': {
          if (part.text === '') break;
          let messageId = openText.get(part.id);
          if (!messageId) {
            messageId = newMessageId();
            openText.set(part.id, messageId);
            lastTextMessage = messageId;
            emit({ type: 'TEXT_MESSAGE_START', messageId, role: 'assistant' });
          }
          outcome.text += part.text;
          outcome.receivedChars += part.text.length;
          emit({ type: 'TEXT_MESSAGE_CONTENT', messageId, delta: part.text });
          break;
        }
        case 'text-end': {
          const messageId = openText.get(part.id);
          if (messageId) emit({ type: 'TEXT_MESSAGE_END', messageId });
          openText.delete(part.id);
          break;
        }
        case 'tool-input-start':
          startedCalls.add(part.id);
          emit({ type: 'TOOL_CALL_START', toolCallId: part.id, toolCallName: part.toolName, parentMessageId: lastTextMessage });
          break;
        case 'tool-input-delta':
          outcome.receivedChars += part.delta.length;
          if (startedCalls.has(part.id) && part.delta !== '') emit({ type: 'TOOL_CALL_ARGS', toolCallId: part.id, delta: part.delta });
          break;
        case 'tool-input-end':
          if (startedCalls.has(part.id) && !endedCalls.has(part.id)) {
            endedCalls.add(part.id);
            emit({ type: 'TOOL_CALL_END', toolCallId: part.id });
          }
          break;
        case 'tool-call': {
          // Some providers send the whole call at once, without input-start/delta/end.
          if (!startedCalls.has(part.toolCallId)) {
            startedCalls.add(part.toolCallId);
            emit({ type: 'TOOL_CALL_START', toolCallId: part.toolCallId, toolCallName: part.toolName, parentMessageId: lastTextMessage });
            const args = typeof part.input === 'string' ? part.input : JSON.stringify(part.input ?? {});
            if (args) emit({ type: 'TOOL_CALL_ARGS', toolCallId: part.toolCallId, delta: args });
          }
          if (!endedCalls.has(part.toolCallId)) {
            endedCalls.add(part.toolCallId);
            emit({ type: 'TOOL_CALL_END', toolCallId: part.toolCallId });
          }
          outcome.toolCalls.push({ toolCallId: part.toolCallId, toolName: part.toolName, input: part.input, invalidReason: part.invalidReason });
          break;
        }
        case 'finish-step': {
          outcome.finishReason = part.finishReason;
          // A stream that stops without the provider's finish reason was cut off midway; one that
          // stops before saying anything at all is an empty reply, which the turn reports as such.
          const unfinished = part.finishReason === 'other' && part.rawFinishReason === undefined;
          if (part.finishReason === 'error' || (unfinished && (outcome.receivedChars > 0 || outcome.toolCalls.length > 0))) {
            outcome.error ??= new StreamCutOffError();
          }
          outcome.usage.inputTokens += part.usage.inputTokens ?? 0;
          outcome.usage.outputTokens += part.usage.outputTokens ?? 0;
          break;
        }
        case 'error':
          outcome.error = endedUnfinished(part.error) ? new StreamCutOffError() : part.error;
          break;
        case 'abort':
          outcome.aborted = true;
          break;
      }
    }
  } catch (error) {
    if (signal.aborted) outcome.aborted = true;
    else outcome.error = error;
  }
  if (signal.aborted) outcome.aborted = true;
  if (outcome.error instanceof StreamCutOffError && outcome.receivedChars === 0 && outcome.toolCalls.length === 0) {
    // The stream ended in order but said nothing at all: an empty reply, not a cut one.
    outcome.error = undefined;
    outcome.finishReason = 'other';
  }
  if (outcome.error !== undefined) outcome.finishReason = 'error';
  closeOpenText();
  // A tool call that started streaming but never completed is dropped; close it for the listeners.
  for (const id of startedCalls) {
    if (!endedCalls.has(id)) emit({ type: 'TOOL_CALL_END', toolCallId: id });
  }
  return outcome;
}
