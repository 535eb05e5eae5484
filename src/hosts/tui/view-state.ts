import { CONTEXT_COMPACTED_EVENT, CONTEXT_USAGE_EVENT } from '../../kernel/context/context-events.js';
import type { KernelEvent, TurnStatus } from '../../kernel/events.js';
import type { DisplayItem, HeaderInfo } from './display-items.js';
import { appendItems, applyEvents, continuedTurnItems, emptyTranscript, endLive, type NewItem, type TranscriptState } from './transcript-state.js';
import { addedUsage, type SessionUsage } from './usage-text.js';

export interface TurnSummary {
  status: TurnStatus;
  message?: string;
}

export type TokenUsage = SessionUsage;

/** Nothing spent yet: no tokens, and a cost known to be nothing. */
export const NO_USAGE: TokenUsage = { inputTokens: 0, outputTokens: 0, cost: 0 };

/** The context meter: tokens in use, and the window when the folder states it. */
export interface ContextUse {
  used: number;
  limit?: number;
}

/** Everything the chat screen shows about the conversation, apart from the input line. */
export interface ViewState {
  transcript: TranscriptState;
  running: boolean;
  /** When the running turn started (ms since the epoch). */
  startedAt?: number;
  lastTurn?: TurnSummary;
  /** The session's token use so far, earlier runs included. */
  usage: TokenUsage;
  /** Bumped to print the whole transcript again (after /clear, or a resize re-wraps it). */
  printKey: number;
  context?: ContextUse;
}

export type ViewAction =
  | { type: 'events'; events: KernelEvent[] }
  | { type: 'items'; items: NewItem[] }
  /** `by`: an augment started the turn (a goal's next one): a line says so in place of the person's words. */
  | { type: 'turn-started'; text: string; at: number; by?: string }
  | { type: 'turn-ended'; summary: TurnSummary; usage?: TokenUsage; context?: ContextUse }
  | { type: 'reset'; header: HeaderInfo; context?: ContextUse }
  | { type: 'reprint' };

/**
 * A streaming reply's finished blocks are printed once its live text passes this many characters:
 * block by block, so the live frame holds little more than the block being written.
 */
const SPLIT_AFTER_CHARS = 200;

export function initialView(items: DisplayItem[], nextId: number, lastTurn?: TurnSummary, usage: TokenUsage = NO_USAGE, context?: ContextUse): ViewState {
  return {
    transcript: { ...emptyTranscript({ splitStreaming: true, splitAfterChars: SPLIT_AFTER_CHARS, nextId }), done: items },
    running: false,
    printKey: 0,
    lastTurn,
    usage,
    context,
  };
}

/** The meter as the events of a turn move it: after each model call, and after a compaction. */
function contextAfter(context: ContextUse | undefined, event: KernelEvent): ContextUse | undefined {
  if (event.type !== 'CUSTOM' || typeof event.value !== 'object' || event.value === null) return context;
  const value = event.value as Record<string, unknown>;
  const limit = typeof value.limit === 'number' ? { limit: value.limit } : {};
  if (event.name === CONTEXT_USAGE_EVENT && typeof value.used === 'number') return { used: value.used, ...limit };
  if (event.name === CONTEXT_COMPACTED_EVENT && typeof value.tokensAfter === 'number') return { used: value.tokensAfter, ...limit };
  return context;
}

export function viewReducer(state: ViewState, action: ViewAction): ViewState {
  switch (action.type) {
    case 'events':
      return { ...state, transcript: applyEvents(state.transcript, action.events), context: action.events.reduce(contextAfter, state.context) };
    case 'items':
      return { ...state, transcript: appendItems(state.transcript, action.items) };
    case 'turn-started':
      return {
        ...state,
        running: true,
        startedAt: action.at,
        transcript: appendItems(state.transcript, action.by !== undefined ? continuedTurnItems(action.by) : [{ kind: 'user', text: action.text }]),
      };
    case 'turn-ended':
      // Whatever the stream left open (a turn that threw) is final now.
      return {
        ...state,
        running: false,
        startedAt: undefined,
        lastTurn: action.summary,
        usage: addedUsage(state.usage, action.usage),
        context: action.context ?? state.context,
        transcript: endLive(state.transcript),
      };
    case 'reset': {
      const fresh = emptyTranscript({ splitStreaming: true, splitAfterChars: SPLIT_AFTER_CHARS, nextId: state.transcript.nextId });
      return {
        running: false,
        printKey: state.printKey + 1,
        usage: NO_USAGE,
        context: action.context,
        transcript: appendItems(fresh, [{ kind: 'header', ...action.header }]),
      };
    }
    case 'reprint':
      return { ...state, printKey: state.printKey + 1 };
  }
}
