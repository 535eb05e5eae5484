import { APICallError } from '@ai-sdk/provider';
import { setTimeout as sleep } from 'node:timers/promises';

/** The first wait before a retry; each later one doubles it. */
const FIRST_BACKOFF_MS = 2000;
/** A server's retry-after is taken up to this long; beyond it (a quota reset tomorrow) the backoff rules. */
const LONGEST_ASKED_WAIT_MS = 60_000;

/** A model call that kept failing: every attempt's error, the last one first to tell. */
export class ModelRetriesError extends Error {
  readonly lastError: unknown;
  constructor(readonly errors: unknown[]) {
    const last = errors[errors.length - 1];
    super(`the model call failed ${errors.length} times; the last time: ${last instanceof Error ? last.message : String(last)}`);
    this.lastError = last;
  }
}

/**
 * An abort, or a timeout that must be told at once: the caller's own signal, Node's fetch giving
 * up, our idle timeout (named TimeoutError for this), Next.js's ResponseAborted.
 */
function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError' || error.name === 'ResponseAborted');
}

/** The provider packages mark a refusal worth another try (408, 409, 429, 5xx, a dropped connection). */
function isRetryable(error: unknown): boolean {
  return APICallError.isInstance(error) && error.isRetryable;
}

/**
 * How long to wait before trying again: what the server asked for in `retry-after-ms`
 * (milliseconds, OpenAI's) or `retry-after` (seconds or an HTTP date), when that is under a
 * minute or under the backoff; the backoff otherwise.
 */
export function retryDelayMs(error: unknown, backoffMs: number, now = Date.now()): number {
  const headers = APICallError.isInstance(error) ? error.responseHeaders : undefined;
  if (headers === undefined) return backoffMs;
  let asked: number | undefined;
  const inMs = headers['retry-after-ms'];
  if (inMs) {
    const value = Number.parseFloat(inMs);
    if (!Number.isNaN(value)) asked = value;
  }
  const after = headers['retry-after'];
  if (after && asked === undefined) {
    const value = Number.parseFloat(after);
    asked = Number.isNaN(value) ? Date.parse(after) - now : value * 1000;
  }
  if (asked !== undefined && !Number.isNaN(asked) && asked >= 0 && (asked < LONGEST_ASKED_WAIT_MS || asked < backoffMs)) return asked;
  return backoffMs;
}

export interface RetryOptions {
  /** Tries after the first; 0 makes one attempt. */
  maxRetries: number;
  signal: AbortSignal;
  /** Waits between attempts; Node's timer unless a test counts the waits instead. */
  wait?: (ms: number, signal: AbortSignal) => Promise<void>;
}

const waitTimer = (ms: number, signal: AbortSignal): Promise<void> => sleep(ms, undefined, { signal });

/**
 * Runs `attempt` until it succeeds, retrying what the provider marks retryable with a doubling
 * backoff or the server's own retry-after. One failure is thrown as it is; several come as a
 * ModelRetriesError holding them all. An abort or a timeout is never retried.
 */
export async function withRetries<T>(attempt: () => PromiseLike<T>, options: RetryOptions): Promise<T> {
  const wait = options.wait ?? waitTimer;
  const errors: unknown[] = [];
  let backoffMs = FIRST_BACKOFF_MS;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (isAbort(error) || options.maxRetries === 0) throw error;
      errors.push(error);
      if (errors.length > options.maxRetries || !isRetryable(error)) {
        if (errors.length === 1) throw error;
        throw new ModelRetriesError(errors);
      }
      await wait(retryDelayMs(error, backoffMs), options.signal);
      backoffMs *= 2;
    }
  }
}
