import type { ModelMessage } from '@ai-sdk/provider-utils';
import type { SessionEntry } from '../../session/entries.js';
import { transcriptWithTurns, type AttachmentLoader } from '../../session/transcript.js';
import type { CompleteFn } from '../augment.js';
import { systemLineEvent, type KernelEvent } from '../events.js';
import { compactThreshold, type CompactPolicy } from './compact-policy.js';
import { stallAdvice } from './context-advice.js';
import { compactTranscript, type CompactionEntry, type CompactionReason } from './compact-transcript.js';
import { CONTEXT_COMPACTED_EVENT, shortTokens, type ContextCompactedValue } from './context-events.js';
import { ContextMeter, type ContextReading } from './context-meter.js';

export interface ContextKeeperDeps {
  policy: CompactPolicy;
  complete: CompleteFn;
  /** The system prompt as the next call would send it (identity, skills, augments' blocks). */
  system(): string;
  /** The augments' blocks alone: the summary is told what it need not keep. */
  besides(): string[];
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
  /** The host's own ways to make room (the chat's /compact and /clear), said when compacting falls short. */
  remedies: readonly string[];
}

/**
 * `nothing`: there was nothing to compact; `busy`: a turn is running, so nothing was tried and no
 * line was said (the caller says `why` itself).
 */
export type CompactResult =
  | { ok: true; entry: CompactionEntry; messages: ModelMessage[] }
  /** `clientWhy`: what a remote client may read in place of `why`, which may quote the model server. */
  | { ok: false; why: string; clientWhy?: string; nothing?: true; busy?: true };

/** The person's messages in a transcript: turns that began, as a stalled compaction counts them. */
function personMessages(messages: readonly ModelMessage[]): number {
  let count = 0;
  for (const message of messages) if (message.role === 'user') count++;
  return count;
}

/**
 * Keeps a conversation within its model's context: the meter, the automatic compaction before a
 * turn that would start over the threshold, the one compaction after a provider's refusal for
 * length, and `/compact`. An automatic compaction that falls short (the context still over the
 * threshold, or no summary shorter than what it would replace) is not tried again at every turn:
 * only once enough new turns have come that the cut can fall past the turns it kept word for
 * word, and the person is told each time. No earlier turn to take away waits one turn.
 */
export class ContextKeeper {
  readonly meter: ContextMeter;
  /** An automatic compaction fell short: the person's messages then, and how many more come before the next try. */
  private stall: { at: number; wait: number } | undefined;

  constructor(private readonly deps: ContextKeeperDeps) {
    this.meter = new ContextMeter(deps.policy.limit);
  }

  /**
   * A conversation opened on a session (a resume, each `--print --session`, each serve run on a
   * shared store) keeps the wait of an automatic compaction that left the context over the
   * threshold, read from its log entry, so a new process does not try again at once.
   */
  resume(entries: readonly SessionEntry[]): void {
    const threshold = compactThreshold(this.deps.policy);
    const index = entries.findLastIndex((entry) => entry.kind === 'compaction');
    const last = entries[index];
    if (threshold === undefined || last?.kind !== 'compaction' || last.reason !== 'auto' || last.tokensAfter <= threshold) return;
    this.stall = { at: personMessages(transcriptWithTurns(entries.slice(0, index + 1)).messages), wait: this.deps.policy.keep + 1 };
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
      this.stall = undefined;
      return undefined;
    }
    const turns = personMessages(this.deps.messages());
    if (this.stall && turns - this.stall.at < this.stall.wait) return undefined;
    const made = await this.compact('auto', undefined, signal);
    // The kept turns, and the latest, must have moved on before another try can take more away.
    const wait = this.deps.policy.keep + 1;
    if (!made.ok) {
      this.stall = { at: turns, wait: made.nothing ? 1 : wait };
      return { why: made.why };
    }
    if (made.entry.tokensAfter > threshold) {
      // Counted on the compacted transcript, which the next turns add to.
      this.stall = { at: personMessages(made.messages), wait };
      this.deps.emit(
        systemLineEvent(
          `the context is still over ${shortTokens(threshold)} tokens after compacting; it is compacted on its own again after ${wait} more turn${wait === 1 ? '' : 's'}${stallAdvice(this.deps.remedies)}`,
        ),
      );
    } else this.stall = undefined;
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
            result.clientWhy !== undefined ? `the conversation was not compacted: ${result.clientWhy}` : undefined,
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
      besides: this.deps.besides(),
      maxOutputTokens: this.deps.summaryTokens,
      signal,
    });
    if (!outcome.ok) {
      const { why, clientWhy, nothing } = outcome;
      return { ok: false, why, ...(clientWhy !== undefined ? { clientWhy } : {}), ...(nothing ? { nothing } : {}) };
    }
    const unsaved = await this.deps.save(outcome.entry);
    if (unsaved !== undefined) return { ok: false, why: `the session could not be saved: ${unsaved}` };
    // The compacted transcript is the one a resumed session rebuilds: made from the same log.
    const messages = transcriptWithTurns([...saved.entries, outcome.entry], this.deps.loadAttachment).messages;
    this.deps.adopt(messages);
    this.meter.forget();
    // A compaction made afresh (by hand, after a refusal, or on its own) starts the count again.
    this.stall = undefined;
    return { ok: true, entry: outcome.entry, messages };
  }
}
