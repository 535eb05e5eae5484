import { z } from 'zod';

/** Providers auggy can build a model for. */
export const PROVIDERS = ['anthropic', 'openai', 'openrouter', 'ollama', 'openai-compatible', 'scripted'] as const;
export type ProviderId = (typeof PROVIDERS)[number];

/** `engine.compact`: when the conversation is compacted, and how much of it stays word for word. */
export const compactSchema = z.looseObject({
  /** A share of maxContextTokens (0.8, or "80%") above which a turn compacts before it starts. */
  at: z.union([z.number().gt(0).max(1), z.string().regex(/^(100|[1-9]?[0-9])%$/, 'must be a share like 0.8 or "80%"')]).optional(),
  /** How many turns before the current one stay word for word. */
  keep: z.number().int().min(0).max(1000).optional(),
  /** false: never compact on its own (the meter, /compact and the recovery from an overflow remain). */
  auto: z.boolean().optional(),
});
export type CompactConfig = z.infer<typeof compactSchema>;

/**
 * `engine.pricing`: what the model costs, in US dollars per million tokens, for the session's
 * cost where auggy's own table (model/model-prices.ts) does not know the model or is out of date.
 */
export const pricingSchema = z.object({
  input: z.number().min(0),
  output: z.number().min(0),
});
export type PricingConfig = z.infer<typeof pricingSchema>;

export const engineSchema = z.looseObject({
  provider: z.enum(PROVIDERS),
  model: z.string().min(1),
  baseURL: z.string().url().optional(),
  apiKeyEnv: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name')
    .optional(),
  script: z.string().min(1).optional(),
  /** The most tokens one reply may have; sent on every call so a model that never stops cannot fill its context. */
  maxTokens: z.number().int().min(1).max(1_000_000).optional(),
  /** Seconds without a byte from the model server (before the first or between two) before the call fails. */
  timeoutSeconds: z.number().positive().max(86_400).optional(),
  /**
   * The model's context window in tokens. Measured against after every call (the context meter);
   * the conversation is compacted before it would outgrow it (engine.compact).
   */
  maxContextTokens: z.number().int().min(1).optional(),
  compact: compactSchema.optional(),
  /**
   * Whether the model takes images. false: a message carrying one is refused before anything is
   * sent. Absent: images are sent, and a provider's refusal of them is said as such.
   */
  vision: z.boolean().optional(),
  pricing: pricingSchema.optional(),
});
export type EngineConfig = z.infer<typeof engineSchema>;

/**
 * An augment written in agent.yaml itself, as other auggy releases do: `{name?, type, options?}`.
 * The name defaults to the type; `options` is the augment's config.
 */
export const inlineAugmentSchema = z.looseObject({
  name: z.string().min(1).optional(),
  type: z.string().min(1),
  options: z.record(z.string(), z.unknown()).nullable().optional(),
});
export type InlineAugment = z.infer<typeof inlineAugmentSchema>;

export const settingsSchema = z.looseObject({
  maxInferenceLoops: z.number().int().min(1).max(1000).default(10),
});

// Unknown keys are kept (looseObject) because folders written by other auggy releases carry more.
export const agentYamlSchema = z.looseObject({
  id: z
    .string()
    .regex(/^aug1_[0-9a-f-]{36}$/, 'must look like aug1_<uuid>')
    .optional(),
  name: z.string().min(1),
  displayName: z.string().min(1).optional(),
  purpose: z.string().optional(),
  /** Optional, as in real auggy: without it, ./identity.md if the folder has one, else purpose and skills alone. */
  identity: z.string().min(1).optional(),
  engine: engineSchema,
  settings: settingsSchema.default({ maxInferenceLoops: 10 }),
  creator: z.looseObject({ displayName: z.string().optional() }).optional(),
  augments: z.array(z.union([z.string().min(1), inlineAugmentSchema])).default([]),
});
export type AgentYaml = z.infer<typeof agentYamlSchema>;

export const augmentYamlSchema = z.looseObject({
  type: z.string().min(1),
  config: z.record(z.string(), z.unknown()).optional(),
});
export type AugmentYaml = z.infer<typeof augmentYamlSchema>;

export const skillFrontMatterSchema = z.looseObject({
  name: z.string().trim().min(1),
  description: z.string().trim().min(1),
});
