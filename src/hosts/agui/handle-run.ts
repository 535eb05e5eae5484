import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Conversation } from '../../kernel/conversation.js';
import { SessionBusyError, SessionError, StoreUnreachableError } from '../../session/session.js';
import type { TurnOutcome } from '../../kernel/events.js';
import { besideRun, type BesideRunContext } from './beside-run.js';
import { HttpError, readJsonBody } from '../http/http-io.js';
import { parseRunInput, type RunRequest } from './run-input.js';
import { RunStream } from './run-stream.js';
import { withheldFromClient } from './event-map.js';
import { reconcileHistory } from './client-history.js';
import { clientTools } from './client-tools.js';
import type { ThreadRegistry } from './thread-registry.js';
import { systemLineEvent } from '../../kernel/events.js';
import type { ConversationTurn, TurnOptions } from '../../kernel/conversation.js';
import { holdFloor, type FloorRun } from '../../kernel/hold-floor.js';
import { startFromMessage } from '../slash-command.js';
import { answersTurn, holdOpen, interruptRun, type InterruptRun } from '../interrupts/interrupt-run.js';

export interface RunRouteContext extends BesideRunContext {
  threads: ThreadRegistry;
  maxMessageChars: number;
  /** The largest /agent/run body taken, in bytes (--max-body-mb). */
  maxBodyBytes?: number;
  /** Headers every response carries (CORS). */
  headers: Record<string, string>;
  /** One line on stderr per finished run, for whoever operates the server. */
  log(line: string): void;
  /** Once shutdown began, the 503 a new run gets (with Retry-After); undefined before. */
  closingRefusal(): HttpError | undefined;
  /** How long an interrupt waits for its answer (`expiresAt`); undefined waits as long as it takes. */
  interruptWaitMs?: number;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The client chooses runId freely; in the operator's log it stays one short line. */
function loggable(text: string): string {
  const clean = text.replace(/[\u0000-\u001f\u007f]/g, '?');
  return clean.length > 80 ? `${clean.slice(0, 80)}...` : clean;
}

async function openThread(context: RunRouteContext, threadId: string): Promise<Conversation> {
  try {
    return await context.threads.conversation(threadId);
  } catch (error) {
    // The store being down is the server's state, not this thread's: agui-server answers 503.
    if (error instanceof StoreUnreachableError) throw error;
    // Refused before the stream opens: a clear 500 rather than a run that fails at once.
    throw new HttpError(500, `the session for thread ${threadId} could not be opened: ${describe(error)}`);
  }
}

/**
 * A run that brings frontend tool results must answer calls the thread left open; anything else
 * is refused before the stream opens, so the client learns why at once.
 */
function checkToolResults(conversation: Conversation, request: RunRequest): void {
  if (request.input.kind !== 'tool-results') return;
  const open = new Set(conversation.openToolCalls().map((call) => call.toolCallId));
  const stray = request.input.results.find((result) => !open.has(result.toolCallId));
  if (!stray) return;
  const waiting = open.size === 0 ? 'this thread has no tool call waiting for a result' : `the calls waiting are ${[...open].join(', ')}`;
  throw new HttpError(
    400,
    `the tool message for ${stray.toolCallId} answers no call the agent left for the client (${waiting}); end messages with a user message instead`,
  );
}

/**
 * The client's state with this agent's keys merged in: a snapshot replaces the client's whole
 * state (the AG-UI contract), so the web app's own keys must travel in it.
 */
function mergedState(request: RunRequest, snapshot: Record<string, unknown>): Record<string, unknown> {
  return { ...(request.state ?? {}), ...snapshot };
}

function interruptRunOf(conversation: Conversation, request: RunRequest, waitMs: number | undefined, log: (line: string) => void): InterruptRun | undefined {
  if (!request.interrupts) return undefined;
  return interruptRun(conversation.session, request.resume, waitMs, (line) => log(`thread ${request.threadId}: ${line}`));
}

/**
 * The first turn of the input the request brings: a message (or a command it names, `/goal …`,
 * whose lines go out as system lines), frontend tool results, or answers to open questions.
 * Undefined when there is nothing to run.
 */
async function firstTurn(
  conversation: Conversation,
  request: RunRequest,
  options: TurnOptions,
  asking: InterruptRun | undefined,
  say: (line: string) => void,
): Promise<(() => Promise<ConversationTurn>) | undefined> {
  const { input } = request;
  if (input.kind === 'message') {
    const started = await startFromMessage(conversation, input.text, { messageId: input.messageId, images: input.images });
    started.command?.output.lines.forEach(say);
    const first = started.first;
    return first && (() => first(options));
  }
  if (input.kind === 'tool-results') return () => conversation.resumeTurn(input.results, options);
  if (!asking) return undefined;
  return answersTurn(conversation, asking, options);
}

/**
 * Runs the request's input and every turn an augment continues it with (a goal's loop): one run
 * holds them all, and a question to the person (an interrupt) ends it, as it ends a lone turn.
 */
async function runInput(
  conversation: Conversation,
  request: RunRequest,
  signal: AbortSignal,
  asking: InterruptRun | undefined,
  say: (line: string) => void,
): Promise<FloorRun | undefined> {
  const options = { signal, clientTools: clientTools(request.tools), ...(asking ? { person: asking.person } : {}) };
  const first = await firstTurn(conversation, request, options, asking, say);
  return first ? holdFloor(conversation, first, options) : undefined;
}

/** Runs the turn, streaming its events; resolves to how it ended. Never throws. */
async function streamTurn(
  conversation: Conversation,
  request: RunRequest,
  stream: RunStream,
  signal: AbortSignal,
  context: RunRouteContext,
): Promise<TurnOutcome> {
  const { log } = context;
  const unsubscribe = conversation.subscribe((event) => {
    // What the client gets only in its short form, the operator reads in full.
    const withheld = withheldFromClient(event);
    if (withheld !== undefined) log(`thread ${request.threadId}: ${withheld}`);
    stream.forward(event.type === 'STATE_SNAPSHOT' ? { ...event, snapshot: mergedState(request, event.snapshot) } : event);
  });
  try {
    const asking = interruptRunOf(conversation, request, context.interruptWaitMs, log);
    asking?.plan.warnings.forEach((warning) => stream.forward(systemLineEvent(warning)));
    if (asking && asking.plan.uncovered.length > 0) {
      // Never run past an open question: the client must answer or cancel it first.
      const ids = asking.plan.uncovered.join(', ');
      return {
        status: 'failed',
        code: 'interrupt_pending',
        message: `this thread has open interrupts (${ids}); answer or cancel each with resume before the thread goes on`,
      };
    }
    if (request.state) await conversation.applyClientState(request.state);
    const floor = await runInput(conversation, request, signal, asking, (line) => stream.forward(systemLineEvent(line)));
    // A resume that answered nothing open runs nothing; its warnings said why.
    if (!floor) return { status: 'completed' };
    const result = floor.last;
    const outcome: TurnOutcome = {
      // How the whole run ended: a goal's end, when it said one, else the last turn's.
      status: floor.status,
      message: floor.message,
      code: floor.code,
      ...(result.pendingToolCalls ? { pendingToolCalls: result.pendingToolCalls } : {}),
    };
    if (!asking) return outcome;
    const interrupts = await holdOpen(conversation, asking);
    if (interrupts.length === 0) return outcome;
    // The board as it stands when the app draws the question (AG-UI's interrupt lifecycle).
    const shared = conversation.sharedState();
    if (shared) stream.forward({ type: 'STATE_SNAPSHOT', snapshot: mergedState(request, shared) });
    return { ...outcome, interrupts };
  } catch (error) {
    // An augment or the session failing outside the kernel's own error handling.
    return { status: 'failed', message: describe(error), code: 'internal_error' };
  } finally {
    unsubscribe();
  }
}

/**
 * A second run on a busy thread is refused (409), but the state it carries is the person's board
 * write and does not wait: it is applied beside the run in flight, which sees it next round.
 */
async function refuseBusy(context: RunRouteContext, request: RunRequest, holder?: string): Promise<HttpError> {
  const busy = holder ?? `a run is already in progress on thread ${request.threadId}; wait for its RUN_FINISHED and send again`;
  const state = request.state;
  if (!state) return new HttpError(409, busy, context.headers);
  const { notes } = await besideRun(context, request.threadId, { createIfMissing: true }, (conversation) => conversation.applyClientState(state));
  const refused = notes.length > 0 ? ` (${notes.join('; ')})` : '';
  return new HttpError(409, `${busy}; the state it carried was applied, and the run in flight sees it at its next round${refused}`, context.headers);
}

/**
 * POST /agent/run. Every refusal (bad body, busy thread, unopenable session) is an HttpError
 * thrown before the stream opens; once it is open, the run always ends with one terminal event.
 */
export async function handleRun(req: IncomingMessage, res: ServerResponse, context: RunRouteContext): Promise<void> {
  const request = parseRunInput(await readJsonBody(req, context.maxBodyBytes), context.maxMessageChars);
  // Checked again after the body arrived: shutdown may have begun while it was uploading.
  const closing = context.closingRefusal();
  if (closing) throw closing;
  const claim = context.threads.claim(request.threadId);
  if (!claim) throw await refuseBusy(context, request);

  const started = Date.now();
  let outcome: TurnOutcome | undefined;
  let clientGone = false;
  try {
    const stream = new RunStream(res, request);
    // Listening before the session opens: a client that leaves meanwhile still cancels the run.
    res.on('close', () => {
      if (stream.finished) return;
      clientGone = true;
      claim.run.controller.abort(new Error('the client disconnected'));
    });
    const conversation = await openThread(context, request.threadId);
    try {
      // The thread's session has one writer across processes and replicas: another auggy writing
      // it (a --print, a run on another replica) means 409, before the stream opens. The lease is
      // given back before the terminal event goes out: a client that reads it may go on at once,
      // on this replica or another.
      outcome = await conversation.asWriter(async () => {
        claim.run.conversation = conversation;
        // A resume brings answers, not messages: what the client holds beyond the session then is
        // only what the stream narrated (the questions as text), which must not land between an
        // open call and its result.
        const adopted = request.input.kind === 'resume' ? 0 : await reconcileHistory(conversation, request.history, request.historyImages);
        if (adopted > 0) context.log(`thread ${request.threadId}: adopted ${adopted} message(s) of the client's history`);
        checkToolResults(conversation, request);
        stream.open(context.headers);
        return streamTurn(conversation, request, stream, claim.run.controller.signal, context);
      });
    } catch (error) {
      if (error instanceof SessionBusyError) throw await refuseBusy(context, request, error.message);
      if (error instanceof StoreUnreachableError) throw error;
      if (error instanceof SessionError)
        throw new HttpError(500, `the session for thread ${request.threadId} could not be written: ${error.message}`, context.headers);
      throw error;
    } finally {
      claim.run.conversation = undefined;
      context.threads.keep(request.threadId, conversation);
    }
    await stream.finish(outcome);
  } finally {
    claim.release();
    if (outcome) {
      const why = clientGone ? ' (the client disconnected)' : outcome.message && outcome.status !== 'input-required' ? `: ${outcome.message}` : '';
      context.log(`thread ${request.threadId} run ${loggable(request.runId)} ${outcome.status}${why} (${Date.now() - started} ms)`);
    }
  }
}
