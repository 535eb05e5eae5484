import { APICallError } from '@ai-sdk/provider';
import { ModelRetriesError } from './call-retries.js';
import { isProviderTimeout } from './idle-timeout.js';
import { describeModel, type ModelSpec } from './model-spec.js';

/** What kind of trouble a model call met; hosts tell clients the kind (serve's RUN_ERROR.code). */
export type ModelFailureCode =
  | 'provider_timeout'
  | 'provider_unreachable'
  | 'provider_rate_limited'
  | 'provider_auth'
  | 'provider_rejected'
  | 'provider_error'
  | 'stream_cut'
  /** The request did not fit the model's context window (the kernel compacts and tries once more). */
  | 'context_overflow';

export interface ModelFailure {
  code: ModelFailureCode;
  /** One sentence for the person running auggy: what failed and what to do. May name the server. */
  message: string;
  /**
   * What failed, without the advice `message` ends with, where a caller has better advice of its
   * own: a context overflow, which the turn loop first tries to meet by compacting.
   */
  fault?: string;
}

export interface FailureContext {
  /** How much of the reply (text and tool-call arguments) had arrived when it broke off. */
  receivedChars?: number;
}

/** The provider's stream ended before the model said it had finished. */
export class StreamCutOffError extends Error {
  constructor() {
    super('stream terminated before the model finished');
  }
}

const QUOTED_CHARS = 200;

function firstLine(text: string): string {
  return text.split('\n')[0].slice(0, 300);
}

function causeCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as NodeJS.ErrnoException).code;
    if (typeof code === 'string') return code;
    current = current.cause;
  }
  return undefined;
}

function where(spec: ModelSpec, url?: string): string {
  try {
    return url ? new URL(url).origin : (spec.baseURL ?? spec.provider);
  } catch {
    return spec.baseURL ?? spec.provider;
  }
}

/**
 * The server's own words from an error body, in any of the shapes servers use: OpenAI's and
 * llama.cpp's `{"error": {"message"}}`, older vLLM's `{"object": "error", "message"}`, Ollama's
 * native `{"error": "..."}`, FastAPI's `{"detail": "..."}`, or plain text.
 */
export function serverMessage(body: string | undefined): string | undefined {
  if (body === undefined || body.trim() === '') return undefined;
  let text = body;
  try {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed === 'object' && parsed !== null) {
      const record = parsed as Record<string, unknown>;
      const error = record.error;
      const nested = typeof error === 'object' && error !== null ? (error as Record<string, unknown>).message : undefined;
      const found = [nested, error, record.message, record.detail].find((value) => typeof value === 'string' && value.trim() !== '');
      if (typeof found === 'string') text = found;
    }
  } catch {
    // Not JSON: the body is the message.
  }
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > QUOTED_CHARS ? `${flat.slice(0, QUOTED_CHARS)}…` : flat;
}

function seconds(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

function cutOff(spec: ModelSpec, context: FailureContext): ModelFailure {
  const chars = context.receivedChars ?? 0;
  return { code: 'stream_cut', message: `the reply from ${describeModel(spec)} was cut off after ${chars} character${chars === 1 ? '' : 's'}; try again` };
}

function unreachable(spec: ModelSpec, url: string | undefined, tries: string): ModelFailure {
  return { code: 'provider_unreachable', message: `could not reach ${where(spec, url)}${tries}; is the server running and the base URL right?` };
}

/**
 * How each server says a request is longer than the model's window, from their own code:
 * OpenAI's `code: "context_length_exceeded"` ("This model's maximum context length is ..."),
 * Anthropic's `prompt is too long: N tokens > M maximum` (and 413 `request_too_large`),
 * llama.cpp's `type: "exceed_context_size_error"` ("request (N tokens) exceeds the available
 * context size (M tokens), try increasing it"), vLLM's "This model's maximum context length is N
 * tokens. However, your request has M input tokens" (older: "you requested M tokens"), Ollama's
 * "the input length exceeds the context length" (its runner's errorInputTooLong).
 */
const OVERFLOW_WORDS =
  /context_length_exceeded|exceed_context_size_error|prompt is too long|maximum context length|exceeds the available context size|exceeds the context length|context window|too many tokens|input is too long/i;

/** Ollama's own words: older servers send them with a 500, not the runner's 400. */
const OLLAMA_OVERFLOW = /input length exceeds the context length/i;

/** Whether a model call was refused because the conversation does not fit the model's window. */
export function isContextOverflow(error: unknown): boolean {
  const last = error instanceof ModelRetriesError ? error.lastError : error;
  if (!APICallError.isInstance(last)) return false;
  if (last.statusCode === 413) return true;
  const said = `${last.responseBody ?? ''}\n${last.message}`;
  if (last.statusCode === 500) return OLLAMA_OVERFLOW.test(said);
  if (last.statusCode !== 400) return false;
  return OVERFLOW_WORDS.test(said);
}

/**
 * A server that takes no images says so in its own words: OpenAI's "image_url is only supported by
 * certain models", vLLM's "is not a multimodal model", llama.cpp's "image input is not supported"
 * (started without --mmproj), Ollama's "does not support images".
 */
const IMAGE_REFUSAL_WORDS = /image_url|image input|images? (?:are|is) not supported|not support(?:s|ed)? images|multimodal|mmproj|vision/i;

function isImageRefusal(error: APICallError): boolean {
  const status = error.statusCode;
  if (status === undefined || status < 400 || status === 401 || status === 403 || status === 404 || status === 429) return false;
  const body = serverMessage(error.responseBody) ?? error.message;
  // Only a request that carried an image (a data URL, or Anthropic's image block) was refused for one.
  return IMAGE_REFUSAL_WORDS.test(body) && /data:image\/|"type":"image"/.test(JSON.stringify(error.requestBodyValues ?? null));
}

function describeApiCallError(error: APICallError, spec: ModelSpec, attempts: number, context: FailureContext): ModelFailure {
  const model = describeModel(spec);
  const status = error.statusCode;
  if (isContextOverflow(error)) {
    const said = serverMessage(error.responseBody);
    const fault = `the conversation is longer than ${model} takes${said ? ` ("${said}")` : ''}`;
    return { code: 'context_overflow', message: `${fault}; set engine.maxContextTokens to the model's window`, fault };
  }
  const tries = attempts > 1 ? ` after ${attempts} attempts` : '';
  if (isImageRefusal(error)) {
    const said = serverMessage(error.responseBody) ?? firstLine(error.message);
    return {
      code: 'provider_rejected',
      message: `${model} does not take images (HTTP ${status}: "${said}"); send the message without them, use a model that takes images, or set engine.vision: false so auggy refuses them before sending`,
    };
  }
  // The request was accepted, then the response broke off: the stream was cut midway.
  if (status !== undefined && status >= 200 && status < 300) return cutOff(spec, context);
  if (status === 401 || status === 403) {
    return {
      code: 'provider_auth',
      message: `${where(spec, error.url)} refused the credentials for ${model} (HTTP ${status}); check ${spec.apiKeyVariable ?? 'the API key'}`,
    };
  }
  if (status === 404) {
    return {
      code: 'provider_rejected',
      message: `${where(spec, error.url)} does not know model ${spec.model} or the endpoint (HTTP 404); check --model, engine.model and the base URL`,
    };
  }
  if (status === 429) return { code: 'provider_rate_limited', message: `${model} is rate limited (HTTP 429)${tries}; wait a moment and try again` };
  const said =
    serverMessage(error.responseBody) ??
    (error.message && !/^(Internal Server Error|Bad Request)$/i.test(error.message) ? firstLine(error.message) : undefined);
  if (status !== undefined && status >= 500) {
    const quote = said ? `: "${said}"` : '; try again later';
    return { code: 'provider_error', message: `${where(spec, error.url)} had a server error (HTTP ${status})${tries}${quote}` };
  }
  if (status !== undefined)
    return { code: 'provider_rejected', message: `${where(spec, error.url)} rejected the request (HTTP ${status}): ${said ?? 'no reason given'}` };
  const code = causeCode(error);
  if (
    code === 'ECONNREFUSED' ||
    code === 'ENOTFOUND' ||
    code === 'EAI_AGAIN' ||
    code === 'UND_ERR_CONNECT_TIMEOUT' ||
    /fetch failed|connect/i.test(error.message)
  ) {
    return unreachable(spec, error.url, tries);
  }
  return { code: 'provider_error', message: `the call to ${model} failed${tries}: ${firstLine(error.message)}` };
}

/** What kind of failure a model call met, and one sentence saying what failed and what to do. */
export function classifyModelError(error: unknown, spec: ModelSpec, context: FailureContext = {}): ModelFailure {
  if (isProviderTimeout(error)) {
    return {
      code: 'provider_timeout',
      message: `no response from ${describeModel(spec)} for ${seconds(error.seconds)} s; the server may be busy; raise engine.timeoutSeconds`,
    };
  }
  if (error instanceof ModelRetriesError) {
    const last = error.lastError;
    return APICallError.isInstance(last) ? describeApiCallError(last, spec, error.errors.length, context) : classifyModelError(last, spec, context);
  }
  if (APICallError.isInstance(error)) return describeApiCallError(error, spec, 1, context);
  if (error instanceof StreamCutOffError) return cutOff(spec, context);
  const code = causeCode(error);
  const message = error instanceof Error ? error.message : String(error);
  if (code === 'ECONNREFUSED') return unreachable(spec, undefined, '');
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || /terminated|socket|premature|aborted/i.test(message)) return cutOff(spec, context);
  return { code: 'provider_error', message: `the call to ${describeModel(spec)} failed: ${firstLine(message)}` };
}

/** One sentence for a failed model call: what failed and what to do. */
export function describeModelError(error: unknown, spec: ModelSpec, context: FailureContext = {}): string {
  return classifyModelError(error, spec, context).message;
}
