import { isAbsolute, resolve } from 'node:path';
import { PROVIDERS, type EngineConfig, type ProviderId } from '../agent/schema.js';
import type { LoadedAgent } from '../agent/types.js';
import { providerKeyVariable } from '../agent/provider-keys.js';
import { nearest } from '../agent/suggest.js';
import { ollamaHostURL } from './ollama-host.js';

/** Everything needed to build a model, after flags and environment overrides are applied. */
export interface ModelSpec {
  provider: ProviderId;
  model: string;
  baseURL?: string;
  apiKey?: string;
  /** The variable the key came from (or should come from), for error messages. */
  apiKeyVariable?: string;
  scriptPath?: string;
  /** Sent as the output limit of every call (engine.maxTokens); DEFAULT_MAX_TOKENS when absent. */
  maxTokens?: number;
  /** How long the server may send nothing before the call fails (engine.timeoutSeconds, --timeout). */
  timeoutSeconds?: number;
  /** The scenario `auggy test` is playing: a PromptKit mock config (the scripted provider's other form) replays that scenario's responses. */
  scenario?: string;
  /** engine.pricing, kept only for the model agent.yaml names: another model has its own price. */
  pricing?: { input: number; output: number };
}

export interface ModelOverrides {
  /** `provider:model` from --model. */
  model?: string;
  /** --base-url */
  baseURL?: string;
  /** --timeout, in seconds. */
  timeoutSeconds?: number;
}

export class ModelSpecError extends Error {
  /** Which setting is wrong: the provider's key, or the model and its server. */
  constructor(
    message: string,
    readonly setting: 'key' | 'model' = 'model',
  ) {
    super(message);
  }
}

/** Enough for a long answer or a large tool call; the same limit auggy folders have long carried. */
export const DEFAULT_MAX_TOKENS = 4096;
/** A busy local server may take a while to start answering; a silent one should not hold a turn for long. */
export const DEFAULT_TIMEOUT_SECONDS = 60;

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

interface BaseURLChoice {
  url?: string;
  /** The setting it came from, named when it is malformed. */
  setting: string;
}

function chooseBaseURL(overrides: ModelOverrides, engine: EngineConfig, env: NodeJS.ProcessEnv): BaseURLChoice {
  if (overrides.baseURL !== undefined) return { url: overrides.baseURL, setting: '--base-url' };
  if (env.AUGGY_BASE_URL) return { url: env.AUGGY_BASE_URL, setting: 'AUGGY_BASE_URL' };
  if (engine.baseURL) return { url: engine.baseURL, setting: 'engine.baseURL' };
  if (engine.provider === 'ollama') return { url: `${ollamaHostURL(env.OLLAMA_HOST)}/v1`, setting: 'OLLAMA_HOST' };
  if (engine.provider === 'openrouter') return { url: 'https://openrouter.ai/api/v1', setting: 'the openrouter default' };
  return { setting: '--base-url' };
}

/** Refuses a base URL fetch could not use, naming the setting it came from. */
function checkBaseURL({ url, setting }: BaseURLChoice): string | undefined {
  if (url === undefined) return undefined;
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.hostname === '') {
    throw new ModelSpecError(`${setting} "${url}" is not an http(s) URL; write it like http://127.0.0.1:8000/v1`);
  }
  return url.replace(/\/+$/, '');
}

/**
 * A model named for a side use, an evaluator or a persona (`provider:model`), resolved in the
 * environment the agent's model is (a provider's key or OLLAMA_HOST, exported or in the folder's
 * .env) but without the AUGGY_* settings, which choose and reach the agent's own model. One of
 * the agent's provider keeps the agent's base URL and key, wherever the agent got them.
 */
export function resolveNamedModelSpec(agent: LoadedAgent, agentSpec: ModelSpec, ref: string): ModelSpec {
  const sameProvider = agentSpec.provider === ref.split(':')[0];
  return resolveModelSpec(
    agent,
    { model: ref, baseURL: sameProvider ? agentSpec.baseURL : undefined, timeoutSeconds: agentSpec.timeoutSeconds },
    { ...process.env, AUGGY_MODEL: '', AUGGY_BASE_URL: '', AUGGY_API_KEY: sameProvider ? (agentSpec.apiKey ?? '') : '' },
  );
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
  // The output limit and the timeout are the agent's own, whichever provider serves it.
  const { maxTokens, timeoutSeconds } = agent.engine;
  const engine: EngineConfig = sameProvider
    ? { ...agent.engine, model: chosen.model }
    : { provider: chosen.provider, model: chosen.model, maxTokens, timeoutSeconds };
  const baseURL = engine.provider === 'scripted' ? undefined : checkBaseURL(chooseBaseURL(overrides, engine, env));
  if (engine.provider === 'openai-compatible' && !baseURL) {
    throw new ModelSpecError('the openai-compatible provider needs a base URL: set engine.baseURL in agent.yaml or pass --base-url');
  }
  const apiKeyVariable = providerKeyVariable(engine);
  const apiKey = env.AUGGY_API_KEY || (apiKeyVariable ? env[apiKeyVariable] : undefined);
  const scriptPath =
    engine.provider === 'scripted' && engine.script ? (isAbsolute(engine.script) ? engine.script : resolve(agent.dir, engine.script)) : undefined;
  if (engine.provider === 'scripted' && !scriptPath) {
    throw new ModelSpecError('the scripted provider needs engine.script (a rules file) in agent.yaml');
  }
  const spec: ModelSpec = {
    provider: engine.provider,
    model: engine.model,
    baseURL,
    apiKey,
    apiKeyVariable,
    scriptPath,
    maxTokens: engine.maxTokens ?? DEFAULT_MAX_TOKENS,
    timeoutSeconds: overrides.timeoutSeconds ?? engine.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS,
    ...(agent.engine.pricing && sameProvider && chosen.model === agent.engine.model ? { pricing: agent.engine.pricing } : {}),
  };
  const missing = missingKeyProblem(spec);
  if (missing) throw new ModelSpecError(missing, 'key');
  return spec;
}

/** Hosted providers cannot be called without a key: said before anything runs. */
export function missingKeyProblem(spec: ModelSpec): string | undefined {
  const needsKey = spec.provider === 'anthropic' || spec.provider === 'openai' || spec.provider === 'openrouter';
  if (!needsKey || spec.apiKey) return undefined;
  return `${spec.apiKeyVariable} is not set, so the ${spec.provider} provider cannot be called; add it to the agent's .env or export it (AUGGY_API_KEY also works)`;
}

export function maxTokensOf(spec: ModelSpec): number {
  return spec.maxTokens ?? DEFAULT_MAX_TOKENS;
}

export function timeoutSecondsOf(spec: ModelSpec): number {
  return spec.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS;
}

export function describeModel(spec: ModelSpec): string {
  return `${spec.provider}:${spec.model}`;
}
