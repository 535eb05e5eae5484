import type { ProviderId } from './schema.js';

/** The provider a new agent gets when nobody chooses one. */
export const DEFAULT_PROVIDER: ProviderId = 'openai';

/** The model a new agent gets for each provider when nobody chooses one. */
export const DEFAULT_MODELS: Readonly<Record<ProviderId, string>> = {
  anthropic: 'claude-sonnet-4-5',
  openai: 'gpt-5.4-mini',
  openrouter: 'openai/gpt-5.4-mini',
  ollama: 'llama3.2',
  'openai-compatible': 'local-model',
  scripted: 'demo',
};

/** Providers that talk to a server the person runs, so agent.yaml records where it is. */
export const DEFAULT_BASE_URLS: Readonly<Partial<Record<ProviderId, string>>> = {
  'openai-compatible': 'http://127.0.0.1:8000/v1',
  ollama: 'http://127.0.0.1:11434/v1',
};

/** One line per provider for choice lists and help. */
export const PROVIDER_SUMMARIES: Readonly<Record<ProviderId, string>> = {
  anthropic: 'Claude models (ANTHROPIC_API_KEY)',
  openai: 'OpenAI models (OPENAI_API_KEY)',
  openrouter: 'many vendors through one key (OPENROUTER_API_KEY)',
  ollama: 'local models served by Ollama, no key',
  'openai-compatible': 'any server speaking the OpenAI Chat Completions API (vLLM, LM Studio, llama.cpp)',
  scripted: 'offline replies from script.yaml, for demos and tests',
};
