import { isAbsolute, resolve } from 'node:path';
import { PROVIDERS, type EngineConfig, type ProviderId } from '../agent/schema.js';
import type { LoadedAgent } from '../agent/types.js';
import { providerKeyVariable } from '../agent/provider-keys.js';
import { nearest } from '../agent/suggest.js';

/** Everything needed to build a model, after flags and environment overrides are applied. */
export interface ModelSpec {
  provider: ProviderId;
  model: string;
  baseURL?: string;
  apiKey?: string;
  /** The variable the key came from (or should come from), for error messages. */
  apiKeyVariable?: string;
  scriptPath?: string;
}

export interface ModelOverrides {
  /** `provider:model` from --model. */
  model?: string;
  /** --base-url */
  baseURL?: string;
}

export class ModelSpecError extends Error {}

const DEFAULT_OLLAMA_HOST = 'http://127.0.0.1:11434';

/** Parses `provider:model` (the model part may itself contain colons, e.g. `ollama:llama3.2:1b`). */
export function parseModelRef(ref: string, origin: string): { provider: ProviderId; model: string } {
  const colon = ref.indexOf(':');
  const provider = colon < 0 ? ref : ref.slice(0, colon);
  const model = colon < 0 ? '' : ref.slice(colon + 1);
  if (!(PROVIDERS as readonly string[]).includes(provider) || model === '') {
    const guess = nearest(provider, PROVIDERS);
    const hint = guess && model !== '' ? `; did you mean ${guess}:${model}?` : '';
    throw new ModelSpecError(`${origin} "${ref}" must be provider:model, with provider one of ${PROVIDERS.join(', ')}${hint}`);
  }
  return { provider: provider as ProviderId, model };
}

function providerBaseURL(provider: ProviderId, engine: EngineConfig, env: NodeJS.ProcessEnv): string | undefined {
  if (engine.baseURL) return engine.baseURL;
  if (provider === 'ollama') return `${(env.OLLAMA_HOST ?? DEFAULT_OLLAMA_HOST).replace(/\/+$/, '')}/v1`;
  if (provider === 'openrouter') return 'https://openrouter.ai/api/v1';
  return undefined;
}

/**
 * Applies --model/--base-url, then AUGGY_MODEL/AUGGY_BASE_URL/AUGGY_API_KEY, over agent.yaml's engine.
 * Flags win over the environment, which wins over the file.
 */
export function resolveModelSpec(agent: LoadedAgent, overrides: ModelOverrides, processEnv: NodeJS.ProcessEnv = process.env): ModelSpec {
  const env = { ...agent.env, ...processEnv };
  const ref = overrides.model ?? (env.AUGGY_MODEL || undefined);
  const chosen = ref ? parseModelRef(ref, overrides.model ? '--model' : 'AUGGY_MODEL') : agent.engine;
  // An engine from another provider keeps only what still applies to the new one.
  const sameProvider = chosen.provider === agent.engine.provider;
  const engine: EngineConfig = sameProvider ? { ...agent.engine, model: chosen.model } : { provider: chosen.provider, model: chosen.model };
  const baseURL = overrides.baseURL ?? (env.AUGGY_BASE_URL || providerBaseURL(engine.provider, engine, env));
  if (engine.provider === 'openai-compatible' && !baseURL) {
    throw new ModelSpecError('the openai-compatible provider needs a base URL: set engine.baseURL in agent.yaml or pass --base-url');
  }
  const apiKeyVariable = providerKeyVariable(engine);
  const apiKey = env.AUGGY_API_KEY || (apiKeyVariable ? env[apiKeyVariable] : undefined);
  const scriptPath = engine.provider === 'scripted' && engine.script
    ? (isAbsolute(engine.script) ? engine.script : resolve(agent.dir, engine.script))
    : undefined;
  if (engine.provider === 'scripted' && !scriptPath) {
    throw new ModelSpecError('the scripted provider needs engine.script (a rules file) in agent.yaml');
  }
  return { provider: engine.provider, model: engine.model, baseURL, apiKey, apiKeyVariable, scriptPath };
}

export function describeModel(spec: ModelSpec): string {
  return `${spec.provider}:${spec.model}`;
}
