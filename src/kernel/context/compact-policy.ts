import type { EngineConfig } from '../../agent/schema.js';

/** `engine.compact` with its defaults filled in. */
export interface CompactPolicy {
  /** engine.maxContextTokens; no automatic compaction without it. */
  limit: number | undefined;
  /** A share of the limit above which a turn compacts before it starts. */
  at: number;
  /** Turns kept word for word before the latest one. */
  keep: number;
  auto: boolean;
  /** Tokens kept free for the reply (the output limit, at most a tenth of the window). */
  reserve: number;
}

export const DEFAULT_COMPACT_AT = 0.8;
export const DEFAULT_COMPACT_KEEP = 2;

function share(at: number | string | undefined): number {
  if (at === undefined) return DEFAULT_COMPACT_AT;
  return typeof at === 'number' ? at : Number.parseInt(at, 10) / 100;
}

export function compactPolicy(engine: EngineConfig, maxOutputTokens: number): CompactPolicy {
  const limit = engine.maxContextTokens;
  return {
    limit,
    at: share(engine.compact?.at),
    keep: engine.compact?.keep ?? DEFAULT_COMPACT_KEEP,
    auto: engine.compact?.auto ?? true,
    reserve: limit === undefined ? 0 : Math.min(maxOutputTokens, Math.ceil(limit / 10)),
  };
}

/** The context above which a turn compacts before it starts: the share, or the window less the reply's room. */
export function compactThreshold(policy: CompactPolicy): number | undefined {
  if (policy.limit === undefined) return undefined;
  return Math.floor(Math.min(policy.at * policy.limit, policy.limit - policy.reserve));
}
