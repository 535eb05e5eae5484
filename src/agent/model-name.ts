import type { ProviderId } from './schema.js';

/** A model as the tables of known models (prices, context windows) look it up. */
export interface ModelName {
  /** Whose model it is: the provider, or for OpenRouter the vendor its id starts with (`openai/gpt-5`). */
  vendor: string;
  /** The model's own name in `sameModelName` form. */
  name: string;
}

/**
 * A model name written the one way every table compares: lowercase, dots as dashes, since
 * OpenRouter writes `claude-sonnet-4.5` where Anthropic writes `claude-sonnet-4-5`.
 */
export function sameModelName(name: string): string {
  return name.toLowerCase().replace(/\./g, '-');
}

/** The vendor and the model's own name, whichever provider serves it. */
export function modelName(provider: ProviderId, model: string): ModelName {
  const slash = provider === 'openrouter' ? model.indexOf('/') : -1;
  return { vendor: slash >= 0 ? model.slice(0, slash).toLowerCase() : provider, name: sameModelName(model.slice(slash + 1)) };
}
