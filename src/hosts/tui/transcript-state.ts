import { systemLineOf, type KernelEvent, type TurnOutcome } from '../../kernel/events.js';
import type { DisplayItem, SystemTone } from './display-items.js';
import { isShownAsReply } from '../person-facing.js';
import { continuedLine } from '../continued-turn.js';
import { splitFinishedBlocks } from './markdown/markdown-blocks.js';
import { answersLine, questionOf, questionnaireResultOf, type QuestionnaireResultValue } from '../../augments/questions/question-events.js';
import { approvalLine, approvalOf } from '../../augments/mcp/approval-event.js';

/** An item still being drawn live, with what ties it to the event stream. */
interface LiveEntry {
  item: DisplayItem;
  /** Assistant text still streaming, or a tool call still running. */
  open: boolean;
  messageId?: string;
  toolCallId?: string;
  /**
   * How long the text was when splitHead last found nothing finished in it. A block can only end
   * at a new line, so until one arrives after that there is nothing to look for; and the text is
   * lexed again only once it has grown by a quarter, so a long block (a list, a code block, a
   * table) costs a few lexes of its length in all, not one per line.
   */
  splitTried?: number;
}

/**
 * The transcript as two parts: `done` items never change again (the TUI prints them once),
 * `live` ones are redrawn while the turn streams. Items leave `live` in order, so the printed
 * transcript never reorders.
 */
export interface TranscriptState {
  done: DisplayItem[];
  live: LiveEntry[];
  nextId: number;
  /** Print a long streaming message line by line, so the live area stays small. */
  splitStreaming: boolean;
  /**
   * How long a streaming message's live text grows before its finished blocks are printed. Every
   * frame lays out and writes the live text whole, so the less of it, the cheaper a stream's
   * frames; a print costs no frame of its own (printed-transcript.tsx). The live part is clipped
   * to the screen meanwhile.
   */
  splitAfterChars: number;
  /** Questionnaires that ask for a tool call's yes: their decision gets a line, not their answers. */
  approvalAsks?: readonly string[];
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** An item before the transcript gives it an id. */
export type NewItem = DistributiveOmit<DisplayItem, 'id'>;

export function emptyTranscript(options: { splitStreaming?: boolean; splitAfterChars?: number; nextId?: number } = {}): TranscriptState {
  return { done: [], live: [], nextId: options.nextId ?? 1, splitStreaming: options.splitStreaming ?? false, splitAfterChars: options.splitAfterChars ?? 0 };
}

/** The items to draw below the printed transcript. */
export function liveItems(state: TranscriptState): DisplayItem[] {
  return state.live.map((entry) => entry.item);
}

function withId(state: TranscriptState, item: NewItem): DisplayItem {
  return { ...item, id: `i${state.nextId++}` } as DisplayItem;
}

function isEmptyText(item: DisplayItem): boolean {
  return item.kind === 'assistant' && !item.continued && item.text.trim() === '';
}

/**
 * Moves the finished prefix of `live` to `done`. A finished assistant message that is last is
 * held back: the turn may still end input-required and make it the question.
 */
function settle(state: TranscriptState): TranscriptState {
  let count = 0;
  while (count < state.live.length && !state.live[count].open) count++;
  const last = state.live[count - 1];
  if (count > 0 && count === state.live.length && last.item.kind === 'assistant') count--;
  if (count === 0) return state;
  const moved = state.live
    .slice(0, count)
    .map((entry) => entry.item)
    .filter((item) => !isEmptyText(item));
  return { ...state, done: moved.length > 0 ? [...state.done, ...moved] : state.done, live: state.live.slice(count) };
}

/** Ends everything still live: a tool that never returned is marked not run. */
export function endLive(state: TranscriptState): TranscriptState {
  if (state.live.length === 0) return state;
  const items = state.live
    .map(({ item }): DisplayItem => (item.kind === 'tool' && item.state === 'running' ? { ...item, state: 'not-run' } : item))
    .filter((item) => !isEmptyText(item));
  return { ...state, done: [...state.done, ...items], live: [] };
}

/** Adds finished items (the person's message, command output, warnings) after what is live. */
export function appendItems(state: TranscriptState, items: NewItem[]): TranscriptState {
  const next = { ...state };
  const entries = items.map((item) => ({ item: withId(next, item), open: false }));
  return settle({ ...next, live: [...state.live, ...entries] });
}

/** What stands for a turn an augment started (a goal's next turn) where the person's words would be. */
export function continuedTurnItems(by: string): NewItem[] {
  return systemItems([continuedLine(by)], 'info');
}

/** One line per image a message carried, from what the session keeps of each (or the image itself, as it is sent). */
export function attachmentItems(images: readonly { name?: string; mediaType: string; size: number }[]): NewItem[] {
  return images.map((image) => ({
    kind: 'attachment',
    mediaType: image.mediaType,
    size: image.size,
    ...(image.name !== undefined ? { name: image.name } : {}),
  }));
}

export function systemItems(lines: string[], tone: SystemTone): NewItem[] {
  return lines.map((text) => ({ kind: 'system', text, tone }));
}

function updateEntry(state: TranscriptState, find: (entry: LiveEntry) => boolean, update: (entry: LiveEntry) => LiveEntry): TranscriptState {
  const index = state.live.findIndex(find);
  if (index < 0) return state;
  const live = [...state.live];
  live[index] = update(live[index]);
  return { ...state, live };
}

function openText(state: TranscriptState, messageId: string): TranscriptState {
  const next = { ...state };
  const item = withId(next, { kind: 'assistant', text: '', continued: false });
  return settle({ ...next, live: [...state.live, { item, open: true, messageId }] });
}

/**
 * Prints the finished markdown blocks of a message that is first in line, keeping its last block
 * live: a block is cut whole, so a code block or a table is never drawn in two halves.
 */
function splitHead(state: TranscriptState, messageId: string): TranscriptState {
  const first = state.live[0];
  if (!state.splitStreaming || first?.messageId !== messageId || first.item.kind !== 'assistant') return state;
  const { text, continued } = first.item;
  const tried = first.splitTried ?? 0;
  if (text.length < Math.max(state.splitAfterChars, tried + tried / 4) || text.indexOf('\n', tried) < 0) return state;
  const split = splitFinishedBlocks(text);
  if (!split) return { ...state, live: [{ ...first, splitTried: text.length }, ...state.live.slice(1)] };
  const next = { ...state };
  const head = withId(next, { kind: 'assistant', text: split.done, continued });
  const rest: LiveEntry = { ...first, splitTried: undefined, item: { ...first.item, text: split.rest, continued: true } };
  return { ...next, done: [...state.done, head], live: [rest, ...state.live.slice(1)] };
}

function appendText(state: TranscriptState, messageId: string, delta: string): TranscriptState {
  let next = state.live.some((entry) => entry.messageId === messageId) ? state : openText(state, messageId);
  // Split before appending, so a message that arrives in one piece (a question) is never cut.
  next = splitHead(next, messageId);
  return updateEntry(
    next,
    (entry) => entry.messageId === messageId,
    (entry) => (entry.item.kind === 'assistant' ? { ...entry, item: { ...entry.item, text: entry.item.text + delta } } : entry),
  );
}

function finishRun(state: TranscriptState, outcome: TurnOutcome): TranscriptState {
  let next = state;
  if (outcome.status === 'input-required' && outcome.message) {
    const question = outcome.message.trim();
    const index = next.live.findLastIndex((entry) => entry.item.kind === 'assistant' && entry.item.text.trim() === question);
    if (index >= 0) {
      const live = [...next.live];
      live[index] = { item: { kind: 'question', id: live[index].item.id, text: question }, open: false };
      next = { ...next, live };
    } else {
      next = appendItems(next, [{ kind: 'question', text: question }]);
    }
  } else if (outcome.status !== 'completed' && outcome.status !== 'input-required') {
    next = appendItems(next, [{ kind: 'turn-end', status: outcome.status, message: outcome.message }]);
  }
  return endLive(next);
}

const NO_ANSWER_TEXT: Record<'away' | 'declined' | 'refused', string> = {
  away: 'no answer: nobody was at the prompt (away)',
  declined: 'no answer: you declined',
  refused: 'no answer: the answers were refused too often',
};

/** After a questionnaire, one line with what the person answered, or that they did not. */
function questionnaireEnded(state: TranscriptState, result: QuestionnaireResultValue): TranscriptState {
  if (state.approvalAsks?.includes(result.questionnaireId)) return state;
  if (result.status === 'answered') return appendItems(state, [{ kind: 'answer', text: answersLine(result.answers) }]);
  return appendItems(state, [{ kind: 'system', text: NO_ANSWER_TEXT[result.reason], tone: 'info' }]);
}

/** Custom events the chat draws: system lines, what the person answered, who approved a call. */
function applyCustom(state: TranscriptState, event: Extract<KernelEvent, { type: 'CUSTOM' }>): TranscriptState {
  const question = questionOf(event);
  if (question) {
    if (question.purpose?.kind !== 'approval' || state.approvalAsks?.includes(question.questionnaireId)) return state;
    return { ...state, approvalAsks: [...(state.approvalAsks ?? []), question.questionnaireId] };
  }
  const result = questionnaireResultOf(event);
  if (result) return questionnaireEnded(state, result);
  const approval = approvalOf(event);
  if (approval) {
    // The person's own decision reads as their answer; a standing rule's as a note.
    const byPerson = approval.by === 'person';
    return appendItems(state, [byPerson ? { kind: 'answer', text: approvalLine(approval) } : { kind: 'system', text: approvalLine(approval), tone: 'info' }]);
  }
  const text = systemLineOf(event);
  return text === undefined ? state : appendItems(state, [{ kind: 'system', text, tone: 'info' }]);
}

/**
 * Folds the events that arrived since the last draw: a run of one message's deltas is appended as
 * one, so the message's finished blocks are looked for once per draw, not once per chunk.
 */
export function applyEvents(state: TranscriptState, events: readonly KernelEvent[]): TranscriptState {
  const merged: KernelEvent[] = [];
  for (const event of events) {
    const last = merged.at(-1);
    if (event.type === 'TEXT_MESSAGE_CONTENT' && last?.type === 'TEXT_MESSAGE_CONTENT' && last.messageId === event.messageId) {
      merged[merged.length - 1] = { ...last, delta: last.delta + event.delta };
    } else merged.push(event);
  }
  return merged.reduce(applyEvent, state);
}

/** Folds one kernel event into the transcript. Events the TUI does not draw leave it unchanged. */
export function applyEvent(state: TranscriptState, event: KernelEvent): TranscriptState {
  switch (event.type) {
    case 'TEXT_MESSAGE_START':
      return state.live.some((entry) => entry.messageId === event.messageId) ? state : openText(state, event.messageId);
    case 'TEXT_MESSAGE_CONTENT':
      return appendText(state, event.messageId, event.delta);
    case 'TEXT_MESSAGE_END':
      return settle(
        updateEntry(
          state,
          (entry) => entry.messageId === event.messageId,
          (entry) => ({ ...entry, open: false }),
        ),
      );
    case 'TOOL_CALL_START': {
      if (state.live.some((entry) => entry.toolCallId === event.toolCallId)) return state;
      // Its question is shown as the reply; a tool line would show it twice.
      if (isShownAsReply(event.toolCallName)) return state;
      const next = { ...state };
      const item = withId(next, { kind: 'tool', name: event.toolCallName, args: '', state: 'running' });
      return settle({ ...next, live: [...state.live, { item, open: true, toolCallId: event.toolCallId }] });
    }
    case 'TOOL_CALL_ARGS':
      return updateEntry(
        state,
        (entry) => entry.toolCallId === event.toolCallId,
        (entry) => (entry.item.kind === 'tool' ? { ...entry, item: { ...entry.item, args: entry.item.args + event.delta } } : entry),
      );
    case 'TOOL_CALL_RESULT':
      return settle(
        updateEntry(
          state,
          (entry) => entry.toolCallId === event.toolCallId,
          (entry) =>
            entry.item.kind === 'tool'
              ? { ...entry, open: false, item: { ...entry.item, result: event.content, state: event.isError ? 'error' : 'ok' } }
              : entry,
        ),
      );
    case 'RUN_FINISHED':
      return finishRun(state, event.result);
    case 'RUN_ERROR':
      return finishRun(state, { status: 'failed', message: event.message });
    case 'CUSTOM':
      return applyCustom(state, event);
    default:
      return state;
  }
}
