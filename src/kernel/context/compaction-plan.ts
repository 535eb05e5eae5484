import type { ModelMessage } from '@ai-sdk/provider-utils';
import { prunedOutputNote, toolOutputText } from '../../session/tool-output.js';
import { summaryIn, type TranscriptWithTurns } from '../../session/transcript.js';
import { estimateRequest, messageChars, tokensForChars } from './context-meter.js';

/** Tool outputs shorter than this are not worth a note in their place. */
const PRUNE_MIN_CHARS = 400;

export type CompactionPlan =
  /** Old tool outputs replaced by notes were enough. */
  | { kind: 'prune'; prunedCalls: string[]; tokensAfter: number }
  /** Everything before `cut` (the first message of turn `keptFromTurn`) is summarised. */
  | { kind: 'summary'; cut: number; keptFromTurn: string; replaced: ModelMessage[]; keptTurns: number }
  | { kind: 'nothing'; why: string };

export interface PlanRequest {
  transcript: TranscriptWithTurns;
  system: string;
  /** Turns to keep word for word besides the latest; fewer when there are not enough. */
  keep: number;
  /** Below this many tokens, pruning alone is enough. */
  pruneTarget: number;
  /** Summarise even when pruning would be enough (/compact). */
  summarise: boolean;
}

/** The tool results before `cut` that are long enough to prune and not pruned yet, with what pruning each saves. */
function prunable(messages: readonly ModelMessage[], cut: number, pruned: ReadonlySet<string>): { ids: string[]; savedChars: number } {
  const ids: string[] = [];
  let savedChars = 0;
  for (const message of messages.slice(0, cut)) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type !== 'tool-result') continue;
      const { text } = toolOutputText(part.output);
      if (text.length < PRUNE_MIN_CHARS || pruned.has(part.toolCallId)) continue;
      ids.push(part.toolCallId);
      savedChars += text.length - prunedOutputNote(text.length).length;
    }
  }
  return { ids, savedChars };
}

/**
 * Where to cut: only where a turn starts (a turn's tool calls and their results stay together),
 * keeping the latest turn and `keep` before it word for word. Old tool outputs are pruned first
 * when that alone brings the context under the target; otherwise the part before the cut is
 * summarised. Nothing is planned when there is no earlier turn to take away.
 */
export function planCompaction(request: PlanRequest): CompactionPlan {
  const { messages, turnStarts, prunedCalls } = request.transcript;
  for (let keep = Math.min(request.keep, turnStarts.length - 1); keep >= 0; keep--) {
    const start = turnStarts[turnStarts.length - 1 - keep];
    if (start === undefined) continue;
    const replaced = messages.slice(0, start.index);
    // Only an earlier summary before the cut: summarising it again takes nothing away.
    if (replaced.length === 0 || (replaced.length === 1 && summaryIn(replaced[0]) !== undefined)) continue;
    if (!request.summarise) {
      const { ids, savedChars } = prunable(messages, start.index, prunedCalls);
      const after = estimateRequest(request.system, messages) - tokensForChars(savedChars);
      if (ids.length > 0 && after <= request.pruneTarget) return { kind: 'prune', prunedCalls: ids, tokensAfter: after };
    }
    return { kind: 'summary', cut: start.index, keptFromTurn: start.turnId, replaced, keptTurns: keep + 1 };
  }
  const chars = messages.reduce((sum, message) => sum + messageChars(message), 0);
  return {
    kind: 'nothing',
    why:
      turnStarts.length <= 1
        ? `the conversation is one turn (${tokensForChars(chars)} tokens by estimate), and the turn under way is never summarised`
        : 'only the latest turns remain, and they are kept word for word',
  };
}
