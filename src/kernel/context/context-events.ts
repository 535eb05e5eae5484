import type { ContextReading } from './context-meter.js';
import type { CompactionEntry } from './compact-transcript.js';

/**
 * CUSTOM event at the end of every turn, when the folder states engine.maxContextTokens: the
 * context meter, `{used, limit, measured}` in tokens. Hosts show it (the chat's `ctx 41% of
 * 200k`, ACP's usage_update, the Console). Every turn's result carries the same as `context`.
 */
export const CONTEXT_USAGE_EVENT = 'context.usage';

/**
 * CUSTOM event when the conversation was compacted: `{reason, tokensBefore, tokensAfter, limit?,
 * replacedMessages, prunedOutputs}`; the summary itself stays in the session log.
 */
export const CONTEXT_COMPACTED_EVENT = 'context.compacted';

export interface ContextCompactedValue {
  reason: CompactionEntry['reason'];
  tokensBefore: number;
  tokensAfter: number;
  limit?: number;
  replacedMessages: number;
  prunedOutputs: number;
}

/** `41k`, `200k`, `1.2M`: tokens as the status line and the compaction line say them. */
export function shortTokens(count: number): string {
  if (count >= 1_000_000) return `${(count / 1_000_000).toFixed(1).replace(/\.0$/, '')}M`;
  if (count >= 10_000) return `${Math.round(count / 1000)}k`;
  if (count >= 1000) return `${(count / 1000).toFixed(1).replace(/\.0$/, '')}k`;
  return String(count);
}

/** `ctx 41% of 200k`, or `ctx 12k` when no window is stated. */
export function contextText(reading: Pick<ContextReading, 'used' | 'limit'>): string {
  if (reading.limit === undefined) return `ctx ${shortTokens(reading.used)}`;
  return `ctx ${Math.round((100 * reading.used) / reading.limit)}% of ${shortTokens(reading.limit)}`;
}
