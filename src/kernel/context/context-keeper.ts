import type { ModelMessage } from '@ai-sdk/provider-utils';
import type { SessionEntry } from '../../session/entries.js';
import { transcriptWithTurns, type AttachmentLoader } from '../../session/transcript.js';
import type { CompleteFn } from '../augment.js';
import { systemLineEvent, type KernelEvent } from '../events.js';
import { compactThreshold, type CompactPolicy } from './compact-policy.js';
import { compactTranscript, type CompactionEntry, type CompactionReason } from './compact-transcript.js';
import { CONTEXT_COMPACTED_EVENT, shortTokens, type ContextCompactedValue } from './context-events.js';
import { ContextMeter, type ContextReading } from './context-meter.js';

export interface ContextKeeperDeps {
  policy: CompactPolicy;
  complete: CompleteFn;
  /** The system prompt as the next call would send it (identity, skills, augments' blocks). */
  system(): string;
  messages(): readonly ModelMessage[];
  /** The session log, every append so far saved first; a reason when the session refuses appends. */
  savedEntries(): Promise<{ entries: readonly SessionEntry[] } | { why: string }>;
  /** Appends the compaction and waits for it; a reason when it was not saved. */
  save(entry: CompactionEntry): Promise<string | undefined>;
  /** Takes the compacted transcript as the conversation's own. */
  adopt(messages: ModelMessage[]): void;
  emit(event: KernelEvent): void;
  /** The summary's output limit. */
  summaryTokens: number;
  /** The bytes of the images the log refers to, for the transcript rebuilt after a compaction. */
  loadAttachment: AttachmentLoader;
}

export type CompactResult = { ok: true; entry: CompactionEntry; messages: ModelMessage[] } | { ok: false; why: string };

/**
 * Keeps a conversation within its model's context: the meter, the automatic compaction before a
 * turn that would start over the threshold, the one compaction after a provider's refusal for
 * length, and `/compact`. A compaction that leaves the context over the threshold is not tried
 * again on its own until the context has fallen under it: the person is told, once.
 */
export class ContextKeeper {
  readonly meter: ContextMeter;
  private stalled = false;

  constructor(private readonly deps: ContextKeeperDeps) {
    this.meter = new ContextMeter(deps.policy.limit);
  }

  reading(): ContextReading {
    return this.meter.reading(this.deps.system(), this.deps.messages());
  }

  /** Before a turn's first call (`due`) or after a refusal for length (`overflow`). */
  async fit(cause: 'due' | 'overflow', signal?: AbortSignal): Promise<{ messages: ModelMessage[] } | { why: string } | undefined> {
    if (cause === 'overflow') {
      const made = await this.compact('overflow', undefined, signal);
      return made.ok ? { messages: made.messages } : { why: made.why };
    }
    const threshold = compactThreshold(this.deps.policy);
    if (!this.deps.policy.auto || threshold === undefined) return undefined;
    const before = this.reading();
    if (before.used <= threshold) {
      this.stalled = false;
      return undefined;
    }
    if (this.stalled) return undefined;
    const made = await this.compact('auto', undefined, signal);
    if (!made.ok) {
      this.stalled = true;
      return { why: made.why };
    }
    if (made.entry.tokensAfter > threshold) {
      this.stalled = true;
      this.deps.emit(
        systemLineEvent(
          `the context is still over ${shortTokens(threshold)} tokens after compacting, so it is not compacted again on its own; /compact with less to keep, or /clear`,
        ),
      );
    }
    return { messages: made.messages };
  }

  /** Compacts now, says so in one line and a `context.compacted` event, or says why it could not. */
  async compact(reason: CompactionReason, keepHint?: string, signal?: AbortSignal): Promise<CompactResult> {
    const result = await this.compactQuietly(reason, keepHint, signal);
    if (!result.ok) {
      // A refusal for length that cannot be met says why in the turn's failure; once is enough.
      // The reason may quote the model server; a remote client is told the kind only.
      if (reason !== 'overflow')
        this.deps.emit(
          systemLineEvent(
            `the conversation was not compacted: ${result.why}`,
            result.why.startsWith('the model could not') ? 'the conversation was not compacted: the summary could not be written' : undefined,
          ),
        );
      return result;
    }
    const { entry } = result;
    const limit = this.deps.policy.limit;
    const value: ContextCompactedValue = {
      reason,
      tokensBefore: entry.tokensBefore,
      tokensAfter: entry.tokensAfter,
      ...(limit !== undefined ? { limit } : {}),
      replacedMessages: entry.replacedMessages,
      prunedOutputs: entry.prunedCalls?.length ?? 0,
    };
    this.deps.emit({ type: 'CUSTOM', name: CONTEXT_COMPACTED_EVENT, value });
    const what =
      entry.summary !== undefined
        ? `${entry.replacedMessages} earlier message${entry.replacedMessages === 1 ? '' : 's'} summarised`
        : `${value.prunedOutputs} old tool output${value.prunedOutputs === 1 ? '' : 's'} pruned`;
    const why = reason === 'overflow' ? 'the model refused it as too long; ' : '';
    const of = limit !== undefined ? ` of ${shortTokens(limit)}` : '';
    this.deps.emit(
      systemLineEvent(
        `context compacted (${why}${what}): ${shortTokens(entry.tokensBefore)} → ${shortTokens(entry.tokensAfter)} tokens${of}; the full history stays in the session log`,
      ),
    );
    return result;
  }

  private async compactQuietly(reason: CompactionReason, keepHint: string | undefined, signal: AbortSignal | undefined): Promise<CompactResult> {
    const saved = await this.deps.savedEntries();
    if ('why' in saved) return { ok: false, why: saved.why };
    const system = this.deps.system();
    const tokensBefore = this.reading().used;
    const outcome = await compactTranscript({
      reason,
      transcript: transcriptWithTurns(saved.entries, this.deps.loadAttachment),
      system,
      policy: this.deps.policy,
      tokensBefore,
      complete: this.deps.complete,
      keepHint,
      maxOutputTokens: this.deps.summaryTokens,
      signal,
    });
    if (!outcome.ok) return { ok: false, why: outcome.why };
    const unsaved = await this.deps.save(outcome.entry);
    if (unsaved !== undefined) return { ok: false, why: `the session could not be saved: ${unsaved}` };
    // The compacted transcript is the one a resumed session rebuilds: made from the same log.
    const messages = transcriptWithTurns([...saved.entries, outcome.entry], this.deps.loadAttachment).messages;
    this.deps.adopt(messages);
    this.meter.forget();
    return { ok: true, entry: outcome.entry, messages };
  }
}
