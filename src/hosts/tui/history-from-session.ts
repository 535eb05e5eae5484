import { loggedKernelEvent } from '../../kernel/events.js';
import type { SessionEntry } from '../../session/entries.js';
import type { DisplayItem } from './display-items.js';
import { NO_USAGE, type TokenUsage, type TurnSummary } from './view-state.js';
import { addedUsage } from './usage-text.js';
import { attachmentRefsOf } from '../../session/attachments.js';
import { appendItems, applyEvent, attachmentItems, continuedTurnItems, emptyTranscript, endLive, type TranscriptState } from './transcript-state.js';

export interface SessionHistory {
  items: DisplayItem[];
  nextId: number;
  /** How the last turn ended: a resumed session still waiting for an answer says so. */
  lastTurn?: TurnSummary;
  /** Tokens the session's turns used, from their usage records. */
  usage?: TokenUsage;
}

/** Older logs may carry system lines as entries of their own rather than as events. */
function appendSystemEntry(state: TranscriptState, entry: SessionEntry): TranscriptState {
  const loose = entry as { kind: string; text?: unknown };
  if (loose.kind !== 'system' || typeof loose.text !== 'string') return state;
  return appendItems(state, [{ kind: 'system', text: loose.text, tone: 'info' }]);
}

/**
 * Rebuilds what the person saw from a session log, so a resumed session shows its earlier
 * transcript: their messages, the assistant's text, tool calls with results, questions, and
 * how turns ended. The same fold draws the live stream, so both look alike.
 */
export function historyFromSession(entries: SessionEntry[], firstId = 1): SessionHistory {
  let state = emptyTranscript({ nextId: firstId });
  let lastTurn: TurnSummary | undefined;
  let usage: TokenUsage = NO_USAGE;
  for (const entry of entries) {
    if (entry.kind === 'record' && entry.name === 'usage') {
      // A record from before costs were kept has none: the session's cost is then unknown.
      const cost = typeof entry.data.cost === 'number' ? entry.data.cost : undefined;
      usage = addedUsage(usage, { inputTokens: Number(entry.data.inputTokens) || 0, outputTokens: Number(entry.data.outputTokens) || 0, cost });
    }
    if (entry.kind === 'user')
      state = appendItems(
        state,
        entry.by !== undefined ? continuedTurnItems(entry.by) : [{ kind: 'user', text: entry.text }, ...attachmentItems(attachmentRefsOf(entry.attachments))],
      );
    else if (entry.kind === 'event') {
      const event = loggedKernelEvent(entry.event);
      state = applyEvent(state, event);
      if (event.type === 'RUN_FINISHED') lastTurn = { status: event.result.status, message: event.result.message };
      if (event.type === 'RUN_ERROR') lastTurn = { status: 'failed', message: event.message };
    } else state = appendSystemEntry(state, entry);
  }
  // A turn cut off by a crash has no end event; what it showed is still history.
  state = endLive(state);
  return { items: state.done, nextId: state.nextId, lastTurn, usage };
}
