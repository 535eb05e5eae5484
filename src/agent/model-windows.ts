import { modelName, sameModelName } from './model-name.js';
import type { ProviderId } from './schema.js';

/**
 * Context windows (input and output together, in tokens) of model families whose vendors publish
 * one, by the family's name: the model's name is the family's, or the family's and `-` and more
 * (`gpt-4.1-mini`, not `gpt-4-1106-preview`). The longest matching family wins, so a family's
 * exception can sit beside it. A model not listed gets no window written: a wrong guess would
 * compact too early or let the server refuse, and the meter and overflow recovery work without one.
 */
const KNOWN_WINDOWS: readonly (readonly [family: string, tokens: number])[] = [
  ['claude', 200_000],
  ['gpt-5', 400_000],
  ['gpt-4.1', 1_047_576],
  ['gpt-4o', 128_000],
  ['o1', 200_000],
  ['o3', 200_000],
  ['o4-mini', 200_000],
  ['gemini-2.5', 1_048_576],
];

/**
 * Ollama's num_ctx when neither the model file nor OLLAMA_CONTEXT_LENGTH raises it: the window it
 * really gives, whatever the model could take. It truncates a longer prompt without a word.
 */
export const OLLAMA_DEFAULT_CONTEXT = 4096;

/** The window `auggy create` writes for a model, when it is known. */
export function knownContextWindow(provider: ProviderId, model: string): number | undefined {
  if (provider === 'ollama') return OLLAMA_DEFAULT_CONTEXT;
  if (provider !== 'anthropic' && provider !== 'openai' && provider !== 'openrouter') return undefined;
  // OpenRouter names the vendor first (`openai/gpt-5.4-mini`); the model's own name follows.
  const { name } = modelName(provider, model);
  let best: { family: string; tokens: number } | undefined;
  for (const [written, tokens] of KNOWN_WINDOWS) {
    const family = sameModelName(written);
    const inFamily = name === family || name.startsWith(`${family}-`);
    if (inFamily && (best === undefined || family.length > best.family.length)) best = { family, tokens };
  }
  return best?.tokens;
}
