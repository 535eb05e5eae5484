import type { PersonChannel } from '../../kernel/person.js';
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import type { Conversation, ConversationTurn } from '../../kernel/conversation.js';
import { holdFloor } from '../../kernel/hold-floor.js';
import type { KernelEvent } from '../../kernel/events.js';
import { describeModel } from '../../model/model-spec.js';
import type { DisplayItem, HeaderInfo, SystemTone } from './display-items.js';
import { attachmentItems, systemItems } from './transcript-state.js';
import { initialView, viewReducer, type ContextUse, type TokenUsage, type TurnSummary, type ViewState } from './view-state.js';
import type { WarningFeed } from './warning-feed.js';
import { mentionedImages } from './image-mentions.js';

export function headerOf(conversation: Conversation): HeaderInfo {
  return {
    title: conversation.agent.displayName,
    model: describeModel(conversation.modelSpec),
    sessionId: conversation.session.id,
    resumed: conversation.session.resumed,
  };
}

function contextUse(reading: { used: number; limit?: number }): ContextUse {
  return { used: reading.used, ...(reading.limit !== undefined ? { limit: reading.limit } : {}) };
}

/** The meter as the status line shows it; nothing before anything is said. */
function meterOf(conversation: Conversation): ContextUse | undefined {
  return conversation.transcript().length > 0 ? contextUse(conversation.contextReading()) : undefined;
}

export interface ConversationControls {
  conversation: Conversation;
  view: ViewState;
  /** Starts a turn; false when one is already running. */
  send(text: string): boolean;
  /** Starts a turn an augment asked for (a command's `startTurn` with `by`, a goal left running); false when one runs. */
  continueWith(continuation: { directive: string; by: string }): boolean;
  /** Whether a turn runs now (the view may not have been drawn since it started or ended). */
  isRunning(): boolean;
  /** A cancel was asked for and the turn has not ended yet. */
  isCanceling(): boolean;
  /** Aborts the running turn (it ends `canceled`, its partial text kept). */
  cancel(): void;
  /**
   * Ends the running turn, if any, and waits until the session has recorded how it ended, or a
   * few seconds at most (a tool that ignores the abort must not keep the chat open).
   */
  settle(): Promise<void>;
  /** `/clear`: a fresh conversation and session (the kernel tells the augments), on a clean screen. */
  clear(): Promise<Conversation>;
  showLines(lines: string[], tone: SystemTone): void;
  /** Shows what the person typed (a command) without sending it anywhere. */
  echo(text: string): void;
  /** Clears the screen and prints the transcript again (a resize re-wraps it). */
  reprint(): void;
}

export interface ConversationSetup {
  conversation: Conversation;
  /** The transcript already printed at start: the header and, when resumed, the session's history. */
  items: DisplayItem[];
  nextId: number;
  /** How the resumed session's last turn ended. */
  lastTurn?: TurnSummary;
  /** The resumed session's token use so far. */
  usage?: TokenUsage;
  warnings: WarningFeed;
  /** Who answers questions the agent asks mid-turn (the TUI's questionnaire); nobody when absent. */
  person?: PersonChannel;
}

/** How long quitting waits for a canceled turn to end. */
const SETTLE_MS = 3000;

/**
 * Events are drawn at most this often. Every draw lays the live part out and Ink builds and
 * writes the whole frame, so drawing each of 40 chunks a second cost the chat several times the
 * CPU of the model call itself (bench/stream-cpu.mjs); five draws a second still read as a stream.
 */
const DRAW_EVERY_MS = 200;

/** The conversation as React state: its events folded into the transcript, its turns tracked. */
export function useConversation(setup: ConversationSetup, clearScreen: () => void): ConversationControls {
  const [conversation, setConversation] = useState(setup.conversation);
  const person = useRef(setup.person);
  const [view, dispatch] = useReducer(viewReducer, undefined, () =>
    initialView(setup.items, setup.nextId, setup.lastTurn, setup.usage, meterOf(setup.conversation)),
  );
  const pending = useRef<KernelEvent[]>([]);
  const flushScheduled = useRef(false);
  const controller = useRef<AbortController | undefined>(undefined);
  const turn = useRef<Promise<void> | undefined>(undefined);
  /** Whether this turn's events said why it failed (RUN_ERROR), so the reason is shown once. */
  const failureShown = useRef(false);

  const lastFlush = useRef(0);
  const flush = useCallback(() => {
    flushScheduled.current = false;
    const events = pending.current.splice(0);
    if (events.length === 0) return;
    lastFlush.current = performance.now();
    dispatch({ type: 'events', events });
  }, []);

  // Events that arrive within a draw's time (a stream of deltas) are drawn as one update; the
  // first after a quiet spell (a tool's result, a reply's first words) is drawn at once.
  const listener = useCallback(
    (event: KernelEvent) => {
      if (event.type === 'RUN_ERROR') failureShown.current = true;
      pending.current.push(event);
      if (flushScheduled.current) return;
      flushScheduled.current = true;
      const wait = lastFlush.current + DRAW_EVERY_MS - performance.now();
      if (wait > 0) setTimeout(flush, wait);
      else setImmediate(flush);
    },
    [flush],
  );

  // The listener is one stable function: `clear()` carries it over to the new conversation,
  // and subscribing it again there is a no-op rather than a second copy of every event.
  useEffect(() => conversation.subscribe(listener), [conversation, listener]);
  useEffect(() => setup.warnings.attach((message) => dispatch({ type: 'items', items: systemItems([message], 'warning') })), [setup.warnings]);

  /**
   * Runs `first`, then every turn an augment continues it with (a goal not met yet), as one span
   * of the chat's running state: Esc cancels whichever turn runs, and the loop stops with it.
   */
  const start = useCallback(
    (first: (signal: AbortSignal) => Promise<ConversationTurn>, shown: { text: string } | { by: string }) => {
      // The conversation is busy without a turn of the chat's own while /compact or /model holds it.
      if (controller.current || conversation.isRunning) return false;
      const abort = new AbortController();
      controller.current = abort;
      failureShown.current = false;
      const started = (what: { text: string } | { by: string }) =>
        dispatch({ type: 'turn-started', ...('text' in what ? { text: what.text } : { text: '', by: what.by }), at: Date.now() });
      started(shown);
      const ended = (result: ConversationTurn) => {
        flush();
        dispatch({ type: 'turn-ended', summary: { status: result.status, message: result.message }, usage: { ...result.usage, cost: result.cost } });
      };
      turn.current = holdFloor(conversation, () => first(abort.signal), {
        signal: abort.signal,
        person: person.current,
        onTurn: (result) => {
          if (result.continuation) ended(result);
        },
        onContinue: (continuation) => {
          flush();
          failureShown.current = false;
          started({ by: continuation.by });
        },
      })
        .then(
          (floor) => ({
            summary: { status: floor.last.status, message: floor.last.message },
            usage: { ...floor.last.usage, cost: floor.last.cost },
            context: floor.last.context,
          }),
          // runTurn reports provider and tool trouble as data; anything thrown (a session that
          // cannot be read or saved) is shown as a failure.
          (error: unknown) => ({
            summary: { status: 'failed' as const, message: error instanceof Error ? error.message : String(error) },
            usage: undefined,
            context: undefined,
          }),
        )
        .then(({ summary, usage, context }) => {
          flush();
          controller.current = undefined;
          // A failure no RUN_ERROR explained (thrown, or a session not saved after the run
          // finished): the transcript says why here, since the status line only marks it.
          if (summary.status === 'failed' && !failureShown.current)
            dispatch({ type: 'items', items: [{ kind: 'turn-end', status: 'failed', message: summary.message }] });
          dispatch({ type: 'turn-ended', summary, usage, context: context && contextUse(context) });
        });
      return true;
    },
    [conversation, flush],
  );

  const send = useCallback(
    (text: string) =>
      start(
        async (signal) => {
          // An image that cannot be sent stops the turn here, in one sentence, before the model is called.
          const images = await mentionedImages(text, process.cwd());
          if (images.length > 0) dispatch({ type: 'items', items: attachmentItems(images.map((image) => ({ ...image, size: image.data.length }))) });
          return conversation.runTurn(text, { signal, person: person.current, images });
        },
        { text },
      ),
    [conversation, start],
  );
  const continueWith = useCallback(
    (continuation: { directive: string; by: string }) =>
      start((signal) => conversation.continueTurn(continuation, { signal, person: person.current }), { by: continuation.by }),
    [conversation, start],
  );

  // A /compact or /model holding the conversation counts too: a line sent meanwhile is queued.
  const isRunning = useCallback(() => controller.current !== undefined || conversation.isRunning, [conversation]);
  const isCanceling = useCallback(() => controller.current?.signal.aborted === true, []);
  const cancel = useCallback(() => controller.current?.abort(new Error('canceled by the person')), []);

  const settle = useCallback(async () => {
    controller.current?.abort(new Error('the chat was closed'));
    let timer: NodeJS.Timeout | undefined;
    const patience = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, SETTLE_MS);
      timer.unref();
    });
    await Promise.race([turn.current, patience]);
    clearTimeout(timer);
  }, []);

  const clear = useCallback(async () => {
    const next = await conversation.clear();
    setConversation(next);
    // The screen is cleared before the new transcript is printed, never after.
    clearScreen();
    dispatch({ type: 'reset', header: headerOf(next), context: meterOf(next) });
    return next;
  }, [conversation, clearScreen]);

  const showLines = useCallback((lines: string[], tone: SystemTone) => dispatch({ type: 'items', items: systemItems(lines, tone) }), []);
  const echo = useCallback((text: string) => dispatch({ type: 'items', items: [{ kind: 'user', text }] }), []);
  const reprint = useCallback(() => {
    clearScreen();
    dispatch({ type: 'reprint' });
  }, [clearScreen]);

  return useMemo(
    () => ({ conversation, view, send, continueWith, isRunning, isCanceling, cancel, settle, clear, showLines, echo, reprint }),
    [conversation, view, send, continueWith, isRunning, isCanceling, cancel, settle, clear, showLines, echo, reprint],
  );
}
