import type { LanguageModelV3 } from '@ai-sdk/provider';
import { idleTimeoutFetch } from './idle-timeout.js';
import { missingKeyProblem, timeoutSecondsOf, type ModelSpec } from './model-spec.js';

export type ModelBuild = { ok: true; model: LanguageModelV3 } | { ok: false; error: string };

/**
 * Builds the streaming model for a spec. Providers are imported on demand so commands that never
 * call a model do not pay for loading them. Problems come back as data: the turn fails with the reason.
 */
export async function createModel(spec: ModelSpec): Promise<ModelBuild> {
  const missing = missingKeyProblem(spec);
  if (missing) return { ok: false, error: missing };
  if (spec.provider === 'scripted') return createScripted(spec);
  // Every call to a server goes through the idle timer: a silent server fails the call, said fast.
  const fetch = await idleTimeoutFetch(timeoutSecondsOf(spec));
  switch (spec.provider) {
    case 'anthropic': {
      const { createAnthropic } = await import('@ai-sdk/anthropic');
      return { ok: true, model: createAnthropic({ apiKey: spec.apiKey, baseURL: spec.baseURL, fetch })(spec.model) };
    }
    case 'openai': {
      const { createOpenAI } = await import('@ai-sdk/openai');
      // Chat Completions: the one wire format every OpenAI-compatible server also speaks.
      return { ok: true, model: createOpenAI({ apiKey: spec.apiKey, baseURL: spec.baseURL, fetch }).chat(spec.model) };
    }
    case 'openrouter':
    case 'ollama':
    case 'openai-compatible': {
      const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
      const provider = createOpenAICompatible({
        name: spec.provider,
        baseURL: spec.baseURL ?? '',
        apiKey: spec.apiKey,
        includeUsage: true,
        fetch,
      });
      return { ok: true, model: provider.chatModel(spec.model) };
    }
  }
}

async function createScripted(spec: ModelSpec): Promise<ModelBuild> {
  const { loadScript, ScriptError } = await import('./scripted/script.js');
  const { createScriptedModel } = await import('./scripted/scripted-model.js');
  try {
    return { ok: true, model: createScriptedModel(loadScript(spec.scriptPath ?? ''), spec.model, spec.scenario) };
  } catch (error) {
    if (error instanceof ScriptError) return { ok: false, error: error.message };
    throw error;
  }
}
