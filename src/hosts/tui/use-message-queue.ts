import { useCallback, useEffect, useMemo, useRef, useState } from 'react';

/**
 * Lines the person sent while a turn ran (messages, and commands that wait for the turn's end),
 * in the order typed. Each goes, one turn each, once the chat is idle again: the running turn
 * ended (however it ended, a cancel included), no question is on screen, and the chat is not
 * quitting.
 */
export interface QueuedLine {
  id: number;
  /** The line as typed: `/compact`, `//etc`, or a message. */
  text: string;
}

export interface QueueState {
  lines: QueuedLine[];
  nextId: number;
}

export const emptyQueue: QueueState = { lines: [], nextId: 1 };

export function enqueue(state: QueueState, text: string): QueueState {
  return { lines: [...state.lines, { id: state.nextId, text }], nextId: state.nextId + 1 };
}

/** The oldest line off the queue: the next to go. */
export function takeFirst(state: QueueState): { state: QueueState; line?: QueuedLine } {
  const [line, ...rest] = state.lines;
  return line ? { state: { ...state, lines: rest }, line } : { state };
}

/** The newest line off the queue: Esc removes it, ↑ takes it back into the input. */
export function takeLast(state: QueueState): { state: QueueState; line?: QueuedLine } {
  const line = state.lines.at(-1);
  return line ? { state: { ...state, lines: state.lines.slice(0, -1) }, line } : { state };
}

/** Rows the queue shows at most; older lines are counted in one row above them. */
export const MAX_QUEUED_ROWS = 4;

/** What the rows show: the newest lines (the ones the keys act on), and how many older ones are left out. */
export function visibleQueue(lines: readonly QueuedLine[], max = MAX_QUEUED_ROWS): { hidden: number; shown: QueuedLine[] } {
  const hidden = Math.max(0, lines.length - max);
  return { hidden, shown: lines.slice(hidden) };
}

/** Screen rows the queue takes: the margin above, a row a shown line, one for the older ones, one for the hint. */
export function queueRows(lines: readonly QueuedLine[], max = MAX_QUEUED_ROWS): number {
  if (lines.length === 0) return 0;
  const { hidden, shown } = visibleQueue(lines, max);
  return 1 + shown.length + (hidden > 0 ? 1 : 0) + 1;
}

/**
 * What the status line says a key does while a turn runs. Esc cancels the turn, except with lines
 * queued and nothing typed, when it removes the newest line; then Ctrl+C is the way to cancel.
 */
export function workingHint(state: { queued: number; typing: boolean }): string {
  if (state.typing) return 'Enter queues';
  if (state.queued > 0) return 'Ctrl+C cancels';
  return 'Esc to cancel';
}

export interface MessageQueue {
  /** The lines as last drawn. */
  lines: QueuedLine[];
  /** How many lines wait now (keys of one chunk of input apply before React draws again). */
  size(): number;
  add(text: string): void;
  /** Removes the newest line and gives back its text. */
  takeLast(): string | undefined;
  takeFirst(): string | undefined;
  /** Draws again, so the drain looks at the queue once more (a command that held the chat has ended). */
  recheck(): void;
}

/** The queue as React state, read through a ref where keys are handled. */
export function useMessageQueue(): MessageQueue {
  const latest = useRef<QueueState>(emptyQueue);
  const [state, setState] = useState<QueueState>(emptyQueue);
  const apply = useCallback((next: QueueState) => {
    latest.current = next;
    setState(next);
  }, []);
  const size = useCallback(() => latest.current.lines.length, []);
  const add = useCallback((text: string) => apply(enqueue(latest.current, text)), [apply]);
  const takeOne = useCallback(
    (take: typeof takeFirst) => {
      const { state: next, line } = take(latest.current);
      if (line) apply(next);
      return line?.text;
    },
    [apply],
  );
  const last = useCallback(() => takeOne(takeLast), [takeOne]);
  const first = useCallback(() => takeOne(takeFirst), [takeOne]);
  const recheck = useCallback(() => {
    if (latest.current.lines.length > 0) apply({ ...latest.current });
  }, [apply]);
  return useMemo(() => ({ lines: state.lines, size, add, takeLast: last, takeFirst: first, recheck }), [state.lines, size, add, last, first, recheck]);
}

export interface QueueDrain {
  /** The chat can take the next line now: no turn runs, no question waits, it is not quitting. */
  idle(): boolean;
  /** Does what Enter would have done with the line on an idle prompt; resolves once a command has run. */
  run(text: string): void | Promise<void>;
}

/**
 * Sends the queue's lines one at a time, each once the chat is idle. It looks after every draw:
 * a turn's end is a draw, and so is a command finishing here (the counter), by which time a
 * `/clear` has put its new conversation in place for the next line.
 */
export function useQueueDrain(queue: MessageQueue, drain: QueueDrain): void {
  const busy = useRef(false);
  const [, redraw] = useState(0);
  useEffect(() => {
    if (busy.current || queue.size() === 0 || !drain.idle()) return;
    const text = queue.takeFirst();
    if (text === undefined) return;
    busy.current = true;
    // `run` never rejects: a command's failure comes back as its output (runCommand).
    void Promise.resolve(drain.run(text)).finally(() => {
      busy.current = false;
      redraw((count) => count + 1);
    });
  });
}
