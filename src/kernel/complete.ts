import { streamText } from 'ai';
import type { LoadedAgent } from '../agent/types.js';
import type { CompleteFn } from '../augments/types.js';
import { createModel, type ModelBuild } from '../model/create-model.js';
import { describeModelError } from '../model/describe-error.js';
import { resolveModelSpec, type ModelSpec } from '../model/model-spec.js';

/** A tool-less completion for augments (evaluators): the agent's model unless another is named. */
export function makeComplete(agent: LoadedAgent, agentSpec: ModelSpec, agentModel: () => Promise<ModelBuild>): CompleteFn {
  return async ({ system, prompt, model, signal }) => {
    let spec = agentSpec;
    try {
      if (model) spec = resolveModelSpec(agent, { model, baseURL: agentSpec.provider === model.split(':')[0] ? agentSpec.baseURL : undefined }, {});
    } catch (error) {
      return { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
    // The agent's own model is already built; only another named model is built here.
    const built = spec === agentSpec ? await agentModel() : await createModel(spec);
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
