import type { SessionEntry } from '../../session/entries.js';
import { summaryMessage, type TranscriptWithTurns } from '../../session/transcript.js';
import type { CompleteFn, CompletionUsage } from '../augment.js';
import { compactThreshold, type CompactPolicy } from './compact-policy.js';
import { planCompaction } from './compaction-plan.js';
import { CHARS_PER_TOKEN, estimateRequest } from './context-meter.js';
import { summaryChunks, summaryLines, summaryPrompt, summarySystemPrompt } from './summary-prompt.js';

export type CompactionReason = 'auto' | 'overflow' | 'command';
export type CompactionEntry = Extract<SessionEntry, { kind: 'compaction' }>;

export interface CompactRequest {
  reason: CompactionReason;
  transcript: TranscriptWithTurns;
  system: string;
  policy: CompactPolicy;
  /** The context before, as the meter reads it. */
  tokensBefore: number;
  complete: CompleteFn;
  /** `/compact <what to keep>`: what the person asks the summary to keep. */
  keepHint?: string;
  /** The augments' blocks, which travel beside the conversation and are never summarised. */
  besides?: readonly string[];
  /** The summary's own output limit. */
  maxOutputTokens: number;
  signal?: AbortSignal;
}

export type CompactOutcome =
  | { ok: true; entry: CompactionEntry; usage: CompletionUsage }
  /**
   * `nothing`: there was no earlier turn to take away, so the next turn may find one.
   * `clientWhy`: what a remote client may read in place of `why`, when `why` quotes the model server.
   */
  | { ok: false; why: string; clientWhy?: string; usage: CompletionUsage; nothing?: true };

/** The most of the window one summary request may fill: room stays for the instructions and the summary. */
const REQUEST_SHARE = 0.6;

/**
 * Compacts a transcript: prunes old tool outputs when that is enough, else has the agent's own
 * model (no tools) summarise what comes before the kept turns, to the fixed structure. Returns the
 * session-log entry that says so, for the caller to append; nothing is changed here. A summary
 * that is no shorter than what it replaces is refused, so a compaction never grows the context.
 */
export async function compactTranscript(request: CompactRequest): Promise<CompactOutcome> {
  const usage = { inputTokens: 0, outputTokens: 0 };
  const { policy, transcript, system } = request;
  const threshold = compactThreshold(policy);
  const plan = planCompaction({
    transcript,
    system,
    keep: request.reason === 'overflow' ? 0 : policy.keep,
    // Pruning alone is enough when it leaves room for several more turns, not just this one.
    pruneTarget: threshold !== undefined ? Math.floor(threshold * 0.6) : Math.floor(request.tokensBefore * 0.5),
    summarise: request.reason === 'command',
  });
  const at = new Date().toISOString();
  if (plan.kind === 'nothing') return { ok: false, why: plan.why, usage, nothing: true };
  if (plan.kind === 'prune') {
    return {
      ok: true,
      entry: {
        kind: 'compaction',
        at,
        reason: request.reason,
        prunedCalls: plan.prunedCalls,
        replacedMessages: 0,
        tokensBefore: request.tokensBefore,
        tokensAfter: plan.tokensAfter,
      },
      usage,
    };
  }
  // Without a stated window, the refused request says how big is too big.
  const windowTokens = policy.limit ?? Math.floor(request.tokensBefore * 0.8);
  const chunks = summaryChunks(summaryLines(plan.replaced), Math.max(2000, Math.floor(windowTokens * REQUEST_SHARE * CHARS_PER_TOKEN)));
  let summary: string | undefined;
  const systemPrompt = summarySystemPrompt();
  for (const chunk of chunks) {
    const reply = await request.complete({
      system: systemPrompt,
      prompt: summaryPrompt(chunk, summary, request.keepHint, request.besides),
      maxOutputTokens: request.maxOutputTokens,
      signal: request.signal,
    });
    usage.inputTokens += reply.usage?.inputTokens ?? 0;
    usage.outputTokens += reply.usage?.outputTokens ?? 0;
    if (!reply.ok) return { ok: false, why: `the model could not write the summary: ${reply.error}`, clientWhy: 'the summary could not be written', usage };
    if (reply.text.trim() === '') return { ok: false, why: 'the model wrote an empty summary', usage };
    summary = reply.text.trim();
  }
  if (summary === undefined) return { ok: false, why: 'there was nothing to summarise', usage };
  const kept = transcript.messages.slice(plan.cut);
  const tokensAfter = estimateRequest(system, [summaryMessage(summary), ...kept]);
  // Like with like: the provider's count holds the tools too, which no estimate here does.
  if (tokensAfter >= estimateRequest(system, transcript.messages)) {
    return { ok: false, why: `the summary (${tokensAfter} tokens with the kept turns) is no shorter than what it would replace`, usage };
  }
  return {
    ok: true,
    entry: {
      kind: 'compaction',
      at,
      reason: request.reason,
      summary,
      keptFromTurn: plan.keptFromTurn,
      replacedMessages: plan.replaced.length,
      tokensBefore: request.tokensBefore,
      tokensAfter,
    },
    usage,
  };
}
