import type { EngineConfig, ProviderId } from './schema.js';

/** The environment variable each hosted provider reads its API key from. */
const KEY_VARIABLES: Readonly<Record<ProviderId, string | undefined>> = {
  anthropic: 'ANTHROPIC_API_KEY',
  openai: 'OPENAI_API_KEY',
  openrouter: 'OPENROUTER_API_KEY',
  // A local or self-hosted server usually needs no key; when it does, agent.yaml names the variable.
  'openai-compatible': undefined,
  ollama: undefined,
  scripted: undefined,
};

/**
 * The variable holding the API key for this engine, or undefined when it needs none.
 * `engine.apiKeyEnv` wins for every provider that talks to a server (a proxy may want its own
 * variable); the scripted provider never reads a key.
 */
export function providerKeyVariable(engine: Pick<EngineConfig, 'provider' | 'apiKeyEnv'>): string | undefined {
  if (engine.provider === 'scripted') return undefined;
  return engine.apiKeyEnv ?? KEY_VARIABLES[engine.provider];
}
