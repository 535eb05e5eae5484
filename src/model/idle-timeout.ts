/**
 * The model server sent nothing for `seconds`: before the response began, or between two chunks.
 * Named TimeoutError so the provider packages do not wrap it and the kernel's retries
 * (call-retries.ts) do not retry it: a silent server is told at once, not after three more silences.
 */
export class ProviderTimeoutError extends Error {
  override readonly name = 'TimeoutError';
  constructor(readonly seconds: number) {
    super(`no byte from the model server for ${seconds} s`);
  }
}

export function isProviderTimeout(error: unknown): error is ProviderTimeoutError {
  return error instanceof ProviderTimeoutError;
}

/**
 * Node's fetch gives up on its own after 300 s without headers or without a body chunk, and the
 * provider packages report that as a failed connection, which is retried twice: a server that
 * never answered held a turn for 909 s. Below that bound the idle timer fires first; at or
 * above it the fetch needs a dispatcher without those limits.
 */
const NODE_FETCH_LIMIT_SECONDS = 290;

async function baseFetchFor(seconds: number): Promise<typeof fetch> {
  if (seconds < NODE_FETCH_LIMIT_SECONDS) return globalThis.fetch;
  const { Agent, fetch: undiciFetch } = await import('undici');
  const dispatcher = new Agent({ headersTimeout: 0, bodyTimeout: 0 });
  return ((input: Parameters<typeof fetch>[0], init?: RequestInit) =>
    undiciFetch(input as Parameters<typeof undiciFetch>[0], { ...(init as Parameters<typeof undiciFetch>[1]), dispatcher })) as unknown as typeof fetch;
}

/**
 * A fetch that fails the request once the server has been silent for `seconds`, counted from the
 * request and again from every chunk of the response body. The caller's own abort still wins.
 */
export async function idleTimeoutFetch(seconds: number): Promise<typeof fetch> {
  const base = await baseFetchFor(seconds);
  const limitMs = Math.round(seconds * 1000);
  return async (input, init) => {
    const controller = new AbortController();
    const timeout = new ProviderTimeoutError(seconds);
    const outer = init?.signal ?? undefined;
    const forwardAbort = () => controller.abort(outer?.reason);
    if (outer?.aborted) forwardAbort();
    else outer?.addEventListener('abort', forwardAbort, { once: true });
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => controller.abort(timeout), limitMs);
    };
    const settle = () => {
      clearTimeout(timer);
      outer?.removeEventListener('abort', forwardAbort);
    };
    const timedOut = () => controller.signal.aborted && controller.signal.reason === timeout;

    arm();
    let response: Response;
    try {
      response = await base(input, { ...init, signal: controller.signal });
    } catch (error) {
      settle();
      throw timedOut() ? timeout : error;
    }
    if (!response.body) {
      settle();
      return response;
    }
    arm();
    const reader = response.body.getReader();
    const body = new ReadableStream<Uint8Array>({
      async pull(stream) {
        try {
          const { done, value } = await reader.read();
          if (done) {
            settle();
            stream.close();
            return;
          }
          arm();
          stream.enqueue(value);
        } catch (error) {
          settle();
          stream.error(timedOut() ? timeout : error);
        }
      },
      cancel(reason) {
        settle();
        return reader.cancel(reason);
      },
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}
