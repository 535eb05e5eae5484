import { APICallError } from '@ai-sdk/provider';
import { RetryError } from 'ai';
import { describeModel, type ModelSpec } from './model-spec.js';

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
  return url ? new URL(url).origin : spec.baseURL ?? spec.provider;
}

function describeApiCallError(error: APICallError, spec: ModelSpec, attempts: number): string {
  const model = describeModel(spec);
  const status = error.statusCode;
  const tries = attempts > 1 ? ` after ${attempts} attempts` : '';
  if (status !== undefined && status >= 200 && status < 300) {
    // The request was accepted, then the response broke off: the stream was cut midway.
    return `the response stream from ${model} was cut off before it finished${tries}; try again`;
  }
  if (status === 401 || status === 403) {
    return `${where(spec, error.url)} refused the credentials for ${model} (HTTP ${status}); check ${spec.apiKeyVariable ?? 'the API key'}`;
  }
  if (status === 404) {
    return `${where(spec, error.url)} does not know model ${spec.model} or the endpoint (HTTP 404); check --model, engine.model and the base URL`;
  }
  if (status === 429) return `${model} is rate limited (HTTP 429)${tries}; wait a moment and try again`;
  if (status !== undefined && status >= 500) return `${where(spec, error.url)} had a server error (HTTP ${status})${tries}; try again later`;
  if (status !== undefined) return `${where(spec, error.url)} rejected the request (HTTP ${status}): ${firstLine(error.responseBody ?? error.message)}`;
  const code = causeCode(error);
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN' || /fetch failed|connect/i.test(error.message)) {
    return `could not reach ${where(spec, error.url)}${tries}; is the server running and the base URL right?`;
  }
  return `the call to ${model} failed${tries}: ${firstLine(error.message)}`;
}

/** One sentence for a failed model call: what failed and what to do. */
export function describeModelError(error: unknown, spec: ModelSpec): string {
  if (RetryError.isInstance(error)) {
    const last = error.lastError;
    return APICallError.isInstance(last) ? describeApiCallError(last, spec, error.errors.length) : describeModelError(last, spec);
  }
  if (APICallError.isInstance(error)) return describeApiCallError(error, spec, 1);
  const code = causeCode(error);
  const message = error instanceof Error ? error.message : String(error);
  if (code === 'ECONNREFUSED') return `could not reach ${where(spec)}; is the server running and the base URL right?`;
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || /terminated|socket|premature|aborted/i.test(message)) {
    return `the response stream from ${describeModel(spec)} was cut off before it finished; try again`;
  }
  return `the call to ${describeModel(spec)} failed: ${firstLine(message)}`;
}
