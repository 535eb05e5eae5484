import type { FailureCode } from './events.js';

/**
 * What a client on the other side of a server is told about a failure. The person running auggy
 * reads the whole sentence (it may name the model server's address, or quote what the server
 * said); a remote client learns the kind and what to do, and the operator finds the rest in the
 * server's log. Sentences that name only the model, a count and a setting pass as they are.
 */
const CLIENT_MESSAGES: Readonly<Partial<Record<FailureCode, string>>> = {
  provider_unreachable: 'the model server could not be reached; the operator can find why in the server log',
  provider_auth: 'the model provider refused the credentials of this server; the operator must check its API key',
  provider_rate_limited: 'the model provider is rate limiting this server; wait a moment and try again',
  provider_rejected: 'the model provider rejected the request; the operator can find its reason in the server log',
  provider_error: 'the model provider had an error; try again later, or ask the operator to look at the server log',
  model_config: 'the agent\u2019s model is not set up on this server; the operator can find why in the server log',
  session_error: 'the session could not be saved on this server; the operator can find why in the server log',
  internal_error: 'the run failed inside the server; the operator can find why in the server log',
  context_overflow:
    'the conversation no longer fits the model\u2019s context, even compacted; start a new thread, or ask the operator to raise engine.maxContextTokens',
};

/** Kinds whose sentence names only the model (provider:model), a count, a setting or the thread's own interrupt ids. */
const SAFE_AS_SAID: ReadonlySet<FailureCode> = new Set(['provider_timeout', 'stream_cut', 'empty_reply', 'budget_exhausted', 'interrupt_pending']);

export function failureForClient(code: FailureCode, message: string | undefined): string {
  if (SAFE_AS_SAID.has(code) && message) return message;
  return CLIENT_MESSAGES[code] ?? 'the run failed; the operator can find why in the server log';
}
