import { HttpAgent, type AgentSubscriber } from '@ag-ui/client';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, authHeaders, ConsoleApi, type ContextReading, saveToken, savedToken, type AdminReport, type Interrupt, type ThreadSummary } from './api.js';
import { applyEvent, EMPTY_TRANSCRIPT, foldEvents, type AguiEventLike, type Transcript } from './transcript.js';

/** An answer to one open interrupt, as AG-UI's resume carries it. */
export interface ResumeEntry {
  interruptId: string;
  status: 'resolved' | 'cancelled';
  payload?: unknown;
}

/** What is known of the thread on screen besides its transcript. */
export interface ThreadView {
  threadId?: string;
  transcript: Transcript;
  /** Since when the agent holds the turn; undefined while the person does. */
  runningSince?: number;
  interrupts: Interrupt[];
  state: Record<string, unknown>;
  indicators: string[];
  context?: ContextReading;
}

const IDLE_POLL_MS = 3000;

/** The meter a run's CUSTOM event brings: the reading after a turn, or what a compaction left. */
function contextFrom(event: AguiEventLike, current: ContextReading | undefined): ContextReading | undefined {
  if (event.type !== 'CUSTOM' || typeof event.value !== 'object' || event.value === null) return current;
  const value = event.value as Record<string, unknown>;
  if (event.name === 'context.usage' && typeof value.used === 'number')
    return { used: value.used, limit: typeof value.limit === 'number' ? value.limit : undefined, measured: value.measured === true };
  if (event.name === 'context.compacted' && typeof value.tokensAfter === 'number')
    return { used: value.tokensAfter, limit: typeof value.limit === 'number' ? value.limit : current?.limit, measured: false };
  return current;
}

function newThreadId(): string {
  const random = typeof crypto.randomUUID === 'function' ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`;
  return `console-${random}`;
}

/** The thread named in the address (`#thread=ID`), so a reload comes back to it. */
function threadInAddress(): string | undefined {
  const match = /(?:^#|&)thread=([A-Za-z0-9_-]{1,128})/.exec(window.location.hash);
  return match?.[1];
}

/** The person's line as the transcript draws it: the run's stream does not repeat what the page sent. */
function withPersonLine(transcript: Transcript, messageId: string, text: string): Transcript {
  const events: AguiEventLike[] = [
    { type: 'TEXT_MESSAGE_START', messageId, role: 'user' },
    { type: 'TEXT_MESSAGE_CONTENT', messageId, delta: text },
    { type: 'TEXT_MESSAGE_END', messageId },
  ];
  return events.reduce(applyEvent, transcript);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The Console's state and what the person can do: one HttpAgent per thread on screen, every run
 * through `/agent/run` with AG-UI's interrupts, and the JSON routes for what is not a run.
 */
export function useConsole() {
  const [api, setApi] = useState(() => new ConsoleApi(savedToken()));
  const [access, setAccess] = useState<'checking' | 'open' | 'needs-token'>('checking');
  const [accessError, setAccessError] = useState<string>();
  const [threads, setThreads] = useState<ThreadSummary[]>([]);
  const [admin, setAdmin] = useState<AdminReport>();
  const [view, setView] = useState<ThreadView>({ transcript: EMPTY_TRANSCRIPT, interrupts: [], state: {}, indicators: [] });
  const [notice, setNotice] = useState<string>();
  const agentRef = useRef<HttpAgent | undefined>(undefined);
  const viewRef = useRef(view);
  viewRef.current = view;

  const agentFor = useCallback(
    (threadId: string) => {
      if (agentRef.current?.threadId !== threadId) agentRef.current = new HttpAgent({ url: '/agent/run', threadId, headers: authHeaders(api.token) });
      return agentRef.current;
    },
    [api],
  );

  const refused = useCallback((error: unknown) => {
    if (error instanceof ApiError && error.status === 401) {
      setAccess('needs-token');
      setAccessError(error.message);
      return;
    }
    setNotice(describe(error));
  }, []);

  const refreshThreads = useCallback(async () => {
    try {
      setThreads((await api.threads()).threads);
      setAccess('open');
    } catch (error) {
      refused(error);
    }
  }, [api, refused]);

  /** How many history events the thread had when last read, so a poll redraws only what grew elsewhere. */
  const historyLength = useRef(0);
  /** Counts the starts and ends of this page's runs, so a thread read that straddles one is dropped. */
  const runChanges = useRef(0);

  /**
   * The thread's state, indicators and open questions as the server has them now; the
   * transcript too when asked, or ('if-changed') when its history grew since the last read.
   */
  const refreshThread = useCallback(
    async (threadId: string, transcript: 'always' | 'if-changed' | 'never') => {
      const asked = runChanges.current;
      try {
        const detail = await api.thread(threadId);
        // Read before a run started or ended here: it may lack the questions that run left open
        // (its RUN_FINISHED brought them), and the read made at the run's end follows anyway.
        if (runChanges.current !== asked) return;
        const grew = detail.events.length !== historyLength.current;
        historyLength.current = detail.events.length;
        const redraw = transcript === 'always' || (transcript === 'if-changed' && grew);
        setView((current) => {
          if (current.threadId !== threadId) return current;
          const idle = current.runningSince === undefined;
          const interrupts = idle ? detail.interrupts : current.interrupts;
          return {
            ...current,
            ...(redraw && idle ? { transcript: foldEvents(detail.events as AguiEventLike[]) } : {}),
            interrupts,
            state: detail.state,
            indicators: detail.indicators,
            context: detail.context ?? current.context,
          };
        });
      } catch (error) {
        // A thread whose first run has not reached the store yet has nothing more to show.
        if (error instanceof ApiError && error.status === 404) return;
        refused(error);
      }
    },
    [api, refused],
  );

  const openThread = useCallback(
    (threadId: string | undefined) => {
      agentRef.current?.abortRun();
      agentRef.current = undefined;
      setNotice(undefined);
      setView({ threadId, transcript: EMPTY_TRANSCRIPT, interrupts: [], state: {}, indicators: [] });
      window.location.hash = threadId === undefined ? '' : `thread=${threadId}`;
      if (threadId !== undefined) void refreshThread(threadId, 'always');
    },
    [refreshThread],
  );

  useEffect(() => {
    void (async () => {
      await refreshThreads();
      const fromAddress = threadInAddress();
      if (fromAddress) openThread(fromAddress);
    })();
  }, [refreshThreads, openThread]);

  useEffect(() => {
    if (access !== 'open') return;
    api
      .admin()
      .then(setAdmin)
      .catch(() => undefined);
  }, [api, access]);

  // Changes made elsewhere (another page or client: a run, a board write, a new thread) appear
  // without a reload: while no run of this page streams them, the page asks every few seconds.
  const { threadId: shownThread, runningSince: shownRunningSince } = view;
  useEffect(() => {
    if (shownRunningSince !== undefined || access !== 'open') return;
    const timer = setInterval(() => {
      if (document.visibilityState !== 'visible') return;
      void refreshThreads();
      if (shownThread !== undefined) void refreshThread(shownThread, 'if-changed');
    }, IDLE_POLL_MS);
    return () => clearInterval(timer);
  }, [shownThread, shownRunningSince, access, refreshThread, refreshThreads]);

  /** One run on the thread: its events folded in as they come, its open questions kept at the end. */
  const run = useCallback(
    async (threadId: string, start: (agent: HttpAgent, subscriber: AgentSubscriber) => Promise<unknown>) => {
      const agent = agentFor(threadId);
      // The board travels back only as the person's own writes (POST /agent/board): a state echoed
      // from an earlier snapshot would write stale lines over newer ones.
      agent.state = {};
      setNotice(undefined);
      runChanges.current++;
      setView((current) => ({ ...current, runningSince: Date.now(), interrupts: [] }));
      const subscriber: AgentSubscriber = {
        onEvent: ({ event }) => {
          const seen = event as unknown as AguiEventLike;
          setView((current) =>
            current.threadId === threadId
              ? { ...current, transcript: applyEvent(current.transcript, seen), context: contextFrom(seen, current.context) }
              : current,
          );
        },
        onStateChanged: ({ state }) => {
          setView((current) => (current.threadId === threadId ? { ...current, state: { ...current.state, ...(state as Record<string, unknown>) } } : current));
        },
        onRunFinishedEvent: (params) => {
          if (params.outcome === 'interrupt')
            setView((current) => (current.threadId === threadId ? { ...current, interrupts: params.interrupts as Interrupt[] } : current));
        },
      };
      try {
        await start(agent, subscriber);
      } catch (error) {
        const message = describe(error);
        if (/HTTP 401/.test(message)) setAccess('needs-token');
        else setNotice(message.replace(/^HTTP \d+: /, ''));
      } finally {
        runChanges.current++;
        setView((current) => (current.threadId === threadId ? { ...current, runningSince: undefined } : current));
        void refreshThreads();
        void refreshThread(threadId, 'never');
      }
    },
    [agentFor, refreshThreads, refreshThread],
  );

  const send = useCallback(
    (text: string) => {
      const threadId = viewRef.current.threadId ?? newThreadId();
      if (viewRef.current.threadId === undefined) {
        window.location.hash = `thread=${threadId}`;
        setView((current) => ({ ...current, threadId }));
      }
      const messageId = `msg-${newThreadId()}`;
      setView((current) => ({
        ...current,
        threadId,
        transcript: withPersonLine(current.transcript, messageId, text),
      }));
      void run(threadId, (agent, subscriber) => {
        agent.addMessage({ id: messageId, role: 'user', content: text });
        return agent.runAgent({}, subscriber);
      });
    },
    [run],
  );

  /** Answers every open interrupt in one run, as AG-UI's resume must. */
  const resume = useCallback(
    (entries: ResumeEntry[], shown?: string) => {
      const { threadId, interrupts } = viewRef.current;
      if (threadId === undefined) return;
      if (shown !== undefined) {
        const messageId = `answer-${newThreadId()}`;
        setView((current) => ({
          ...current,
          transcript: withPersonLine(current.transcript, messageId, shown),
        }));
      }
      void run(threadId, (agent, subscriber) => {
        // After a reload the agent did not see the run that asked: it learns the open questions here.
        agent.pendingInterrupts = interrupts;
        return agent.runAgent({ resume: entries }, subscriber);
      });
    },
    [run],
  );

  const stop = useCallback(() => {
    if (viewRef.current.runningSince === undefined) return;
    agentRef.current?.abortRun();
    setView((current) => ({
      ...current,
      runningSince: undefined,
      transcript: applyEvent(current.transcript, { type: 'RUN_FINISHED', result: { status: 'canceled' } }),
    }));
  }, []);

  const writeBoard = useCallback(
    async (line: string, text: string): Promise<string | undefined> => {
      const { threadId } = viewRef.current;
      if (threadId === undefined) return 'the board belongs to a thread: send a first message, then write your lines';
      try {
        const { board } = await api.writeBoard(threadId, line, text);
        setView((current) => (current.threadId === threadId ? { ...current, state: { ...current.state, board } } : current));
        return undefined;
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) refused(error);
        return describe(error);
      }
    },
    [api, refused],
  );

  /** One of the agent's slash commands (`/ask clear`); resolves to what it said. */
  const runCommand = useCallback(
    async (command: string): Promise<{ lines: string[]; isError: boolean }> => {
      const { threadId } = viewRef.current;
      if (threadId === undefined) return { lines: ['Send a first message: the ask belongs to a thread.'], isError: true };
      try {
        const { lines, isError, state, context } = await api.command(threadId, command);
        setView((current) =>
          current.threadId === threadId ? { ...current, state: { ...current.state, ...state }, context: context ?? current.context } : current,
        );
        void refreshThread(threadId, 'if-changed');
        return { lines, isError };
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) refused(error);
        return { lines: [describe(error)], isError: true };
      }
    },
    [api, refused, refreshThread],
  );

  const submitToken = useCallback((token: string) => {
    saveToken(token);
    agentRef.current = undefined;
    setAccessError(undefined);
    setApi(new ConsoleApi(token));
  }, []);

  return { api, access, accessError, submitToken, threads, admin, view, notice, send, resume, stop, openThread, writeBoard, runCommand };
}

export type ConsoleModel = ReturnType<typeof useConsole>;
