import type { KernelEvent, TurnStatus } from '../../kernel/events.js';
import type { DisplayItem, HeaderInfo } from './display-items.js';
import { appendItems, applyEvent, continuedTurnItems, emptyTranscript, endLive, type NewItem, type TranscriptState } from './transcript-state.js';

export interface TurnSummary {
  status: TurnStatus;
  message?: string;
}

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
}

export const NO_USAGE: TokenUsage = { inputTokens: 0, outputTokens: 0 };

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
}

export type ViewAction =
  | { type: 'events'; events: KernelEvent[] }
  | { type: 'items'; items: NewItem[] }
  /** `by`: an augment started the turn (a goal's next one): a line says so in place of the person's words. */
  | { type: 'turn-started'; text: string; at: number; by?: string }
  | { type: 'turn-ended'; summary: TurnSummary; usage?: TokenUsage }
  | { type: 'reset'; header: HeaderInfo }
  | { type: 'reprint' };

export function initialView(items: DisplayItem[], nextId: number, lastTurn?: TurnSummary, usage: TokenUsage = NO_USAGE): ViewState {
  return { transcript: { ...emptyTranscript({ splitStreaming: true, nextId }), done: items }, running: false, printKey: 0, lastTurn, usage };
}

function added(total: TokenUsage, turn: TokenUsage | undefined): TokenUsage {
  return turn ? { inputTokens: total.inputTokens + turn.inputTokens, outputTokens: total.outputTokens + turn.outputTokens } : total;
}

export function viewReducer(state: ViewState, action: ViewAction): ViewState {
  switch (action.type) {
    case 'events':
      return { ...state, transcript: action.events.reduce(applyEvent, state.transcript) };
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
        usage: added(state.usage, action.usage),
        transcript: endLive(state.transcript),
      };
    case 'reset': {
      const fresh = emptyTranscript({ splitStreaming: true, nextId: state.transcript.nextId });
      return { running: false, printKey: state.printKey + 1, usage: NO_USAGE, transcript: appendItems(fresh, [{ kind: 'header', ...action.header }]) };
    }
    case 'reprint':
      return { ...state, printKey: state.printKey + 1 };
  }
}
