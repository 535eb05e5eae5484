import { modelName, sameModelName } from '../agent/model-name.js';
import type { ModelSpec } from './model-spec.js';

/** What a model costs, in US dollars per million tokens. */
export interface ModelPrice {
  input: number;
  output: number;
}

/**
 * List prices per million tokens, standard tier, without batch or cache discounts. The figures are
 * the providers' published API prices (anthropic.com/pricing, openai.com/api/pricing) as they stood
 * in 2025; they change, so update them here when a provider does, and a folder whose model is
 * missing or priced otherwise (a discount, a local server) sets engine.pricing in agent.yaml.
 * A model is found by its name, or its name with a date or `-latest` after it
 * (`claude-sonnet-4-5-20250929`, `gpt-4o-2024-08-06`).
 */
export const MODEL_PRICES: Readonly<Record<'anthropic' | 'openai', Readonly<Record<string, ModelPrice>>>> = {
  anthropic: {
    'claude-opus-4-5': { input: 5, output: 25 },
    'claude-opus-4-1': { input: 15, output: 75 },
    'claude-opus-4': { input: 15, output: 75 },
    'claude-opus-4-0': { input: 15, output: 75 },
    'claude-sonnet-4-5': { input: 3, output: 15 },
    'claude-sonnet-4': { input: 3, output: 15 },
    'claude-sonnet-4-0': { input: 3, output: 15 },
    'claude-3-7-sonnet': { input: 3, output: 15 },
    'claude-3-5-sonnet': { input: 3, output: 15 },
    'claude-haiku-4-5': { input: 1, output: 5 },
    'claude-3-5-haiku': { input: 0.8, output: 4 },
    'claude-3-haiku': { input: 0.25, output: 1.25 },
    'claude-3-opus': { input: 15, output: 75 },
  },
  openai: {
    'gpt-5.1': { input: 1.25, output: 10 },
    'gpt-5': { input: 1.25, output: 10 },
    'gpt-5-mini': { input: 0.25, output: 2 },
    'gpt-5-nano': { input: 0.05, output: 0.4 },
    'gpt-4.1': { input: 2, output: 8 },
    'gpt-4.1-mini': { input: 0.4, output: 1.6 },
    'gpt-4.1-nano': { input: 0.1, output: 0.4 },
    'gpt-4o': { input: 2.5, output: 10 },
    'gpt-4o-mini': { input: 0.15, output: 0.6 },
    o1: { input: 15, output: 60 },
    o3: { input: 2, output: 8 },
    'o3-mini': { input: 1.1, output: 4.4 },
    'o4-mini': { input: 1.1, output: 4.4 },
  },
};

/** What may follow a model's name in a dated or aliased id. */
const VERSION_SUFFIX = /^(\d{8}|\d{4}-\d{2}-\d{2}|latest)$/;

function lookUp(table: Readonly<Record<string, ModelPrice>>, wanted: string): ModelPrice | undefined {
  for (const [name, price] of Object.entries(table)) {
    const key = sameModelName(name);
    if (wanted === key) return price;
    if (wanted.startsWith(`${key}-`) && VERSION_SUFFIX.test(wanted.slice(key.length + 1))) return price;
  }
  return undefined;
}

/** The table's price for a provider's model; OpenRouter's `vendor/model` at the vendor's list price. */
export function tablePrice(provider: ModelSpec['provider'], model: string): ModelPrice | undefined {
  if (provider !== 'anthropic' && provider !== 'openai' && provider !== 'openrouter') return undefined;
  const { vendor, name } = modelName(provider, model);
  return vendor === 'anthropic' || vendor === 'openai' ? lookUp(MODEL_PRICES[vendor], name) : undefined;
}

/** The model's price: engine.pricing where agent.yaml sets one for it, else the table's; undefined when neither knows. */
export function priceOf(spec: Pick<ModelSpec, 'provider' | 'model' | 'pricing'>): ModelPrice | undefined {
  return spec.pricing ?? tablePrice(spec.provider, spec.model);
}

/** US dollars for the tokens at that price. Cached input is counted at the full input price: an upper bound. */
export function costOf(usage: { inputTokens: number; outputTokens: number }, price: ModelPrice): number {
  return (usage.inputTokens * price.input + usage.outputTokens * price.output) / 1_000_000;
}

/** `$0.0123`, `$1.42`: cents and below with four decimals, so a short session does not read as free. */
export function costText(dollars: number): string {
  return dollars < 1 ? `$${dollars.toFixed(4)}` : `$${dollars.toFixed(2)}`;
}
