import type { LoadedAgent } from '../agent/types.js';
import type { CompleteFn } from './augment.js';
import type { ModelBuilder } from '../model/model-cache.js';
import { classifyModelError } from '../model/describe-error.js';
import { maxTokensOf, resolveNamedModelSpec, type ModelSpec } from '../model/model-spec.js';
import { streamModel } from './model-stream.js';

/** An evaluator answers in a line of JSON; a model that rambles past this is cut off, not waited for. */
export const COMPLETION_MAX_TOKENS = 1024;

/** A tool-less completion for augments (evaluators): the agent's model unless another is named. */
export function makeComplete(agent: LoadedAgent, agentSpec: ModelSpec, models: ModelBuilder): CompleteFn {
  return async ({ system, prompt, model, signal, maxOutputTokens, maxRetries }) => {
    let spec = agentSpec;
    try {
      if (model) spec = resolveNamedModelSpec(agent, agentSpec, model);
    } catch (error) {
      return { ok: false, error: error instanceof Error ? error.message : String(error), code: 'model_config' };
    }
    // Built once per host: an evaluator runs after every turn, and rebuilding its model each time
    // (a scripted model re-reads its script) was a measurable share of a serve run.
    const built = await models(spec);
    if (!built.ok) return { ok: false, error: built.error, code: 'model_config' };
    let failure: unknown;
    let text = '';
    const usage = { inputTokens: 0, outputTokens: 0 };
    try {
      // Streamed like every turn, so any server that can run the agent can also judge it.
      const parts = streamModel({
        model: built.model,
        system,
        prompt,
        signal: signal ?? new AbortController().signal,
        maxRetries: maxRetries ?? 2,
        maxOutputTokens: Math.min(maxOutputTokens ?? COMPLETION_MAX_TOKENS, maxTokensOf(spec)),
      });
      for await (const part of parts) {
        if (part.type === 'text-delta') text += part.text;
        else if (part.type === 'error') failure ??= part.error;
        else if (part.type === 'abort') throw signal?.reason ?? new Error('the completion was canceled');
        else if (part.type === 'finish-step') {
          usage.inputTokens += part.usage.inputTokens ?? 0;
          usage.outputTokens += part.usage.outputTokens ?? 0;
        }
      }
      if (failure !== undefined) {
        const { code, message } = classifyModelError(failure, spec, { receivedChars: text.length });
        return { ok: false, error: message, code, usage };
      }
      return { ok: true, text, usage };
    } catch (error) {
      // The stream's own error says more than whatever ended the call after it.
      const { code, message } = classifyModelError(failure ?? error, spec);
      return { ok: false, error: message, code };
    }
  };
}
