import { streamText } from 'ai';
import type { LoadedAgent } from '../agent/types.js';
import type { CompleteFn } from '../augments/types.js';
import type { ModelBuilder } from '../model/model-cache.js';
import { describeModelError } from '../model/describe-error.js';
import { resolveModelSpec, type ModelSpec } from '../model/model-spec.js';

/** A tool-less completion for augments (evaluators): the agent's model unless another is named. */
export function makeComplete(agent: LoadedAgent, agentSpec: ModelSpec, models: ModelBuilder): CompleteFn {
  return async ({ system, prompt, model, signal }) => {
    let spec = agentSpec;
    try {
      if (model) spec = resolveModelSpec(agent, { model, baseURL: agentSpec.provider === model.split(':')[0] ? agentSpec.baseURL : undefined }, {});
    } catch (error) {
      return { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
    // Built once per host: an evaluator runs after every turn, and rebuilding its model each time
    // (a scripted model re-reads its script) was a measurable share of a serve run.
    const built = await models(spec);
    if (!built.ok) return { ok: false, error: built.error };
    try {
      // Streamed like every turn, so any server that can run the agent can also judge it.
      let failure: unknown;
      const reply = streamText({ model: built.model, system, prompt, abortSignal: signal, maxRetries: 2, onError: ({ error }) => {
          failure = error;
        } });
      const text = await reply.text;
      if (failure !== undefined) return { ok: false, error: describeModelError(failure, spec) };
      return { ok: true, text };
    } catch (error) {
      return { ok: false, error: describeModelError(error, spec) };
    }
  };
}
