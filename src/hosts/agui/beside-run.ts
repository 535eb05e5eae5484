import type { Conversation } from '../../kernel/conversation.js';
import { systemLineOf } from '../../kernel/events.js';
import { withheldFromClient } from './event-map.js';
import { SessionNotFoundError } from '../../session/session.js';
import type { SessionStore } from '../../session/store.js';
import { HttpError } from '../http/http-io.js';
import { openThreadConversation, type AgentTarget } from '../open-conversation.js';
import type { ThreadRegistry } from './thread-registry.js';

export interface BesideRunContext {
  target: AgentTarget;
  store: SessionStore;
  threads: ThreadRegistry;
  log(line: string): void;
}

/**
 * The 404 for a thread with no session yet, when the route is not one that makes it: a thread
 * begins with its first run. `missing` ends the sentence where a route knows better.
 */
export function noThreadYet(threadId: string, missing = 'a thread begins with its first POST /agent/run'): HttpError {
  return new HttpError(404, `no thread ${threadId} yet; ${missing}`);
}

/** `error`, or the 404 that says the thread has no session yet when that is what it is. */
export function asNoThreadYet(error: unknown, threadId: string, missing?: string): unknown {
  return error instanceof SessionNotFoundError ? noThreadYet(threadId, missing) : error;
}

/**
 * Collects the system lines a conversation says while `lines` is listened to, as a remote client
 * may read them (the answer serve gives back); the full sentence of each it shortened goes to the
 * operator's log. Stop with the function returned.
 */
export function clientLinesOf(conversation: Conversation, context: Pick<BesideRunContext, 'log'>, threadId: string): { lines: string[]; stop(): void } {
  const lines: string[] = [];
  const stop = conversation.subscribe((event) => {
    const line = systemLineOf(event, 'client');
    if (line !== undefined) lines.push(line);
    const withheld = withheldFromClient(event);
    if (withheld !== undefined) context.log(`thread ${threadId}: ${withheld}`);
  });
  return { lines, stop };
}

/**
 * Does something to a thread's conversation without taking its writer, for a person's board
 * write that must not wait for a run: through the run's own conversation when it runs in this
 * process (its clients get the STATE_DELTA at once), otherwise through a conversation that only
 * changes state files, which the writer hears of (in-process, or by NOTIFY from another replica).
 * Resolves to what `act` returned and the system lines it caused; everything is saved by then.
 * A thread with no session, when it is not to be made, is refused with `noThreadYet`.
 */
export async function besideRun<T>(
  context: BesideRunContext,
  threadId: string,
  options: { createIfMissing: boolean; missing?: string },
  act: (conversation: Conversation) => Promise<T>,
): Promise<{ result: T; notes: string[] }> {
  const local = context.threads.active(threadId)?.conversation;
  const conversation =
    local ??
    (await openThreadConversation(context.target, context.store, threadId, {
      createIfMissing: options.createIfMissing,
      observer: true,
      warn: (message) => context.log(`warning: thread ${threadId}: ${message}`),
    }).catch((error: unknown) => {
      throw asNoThreadYet(error, threadId, options.missing);
    }));
  const notes = clientLinesOf(conversation, context, threadId);
  try {
    const result = await act(conversation);
    await conversation.session.flush();
    return { result, notes: notes.lines };
  } finally {
    notes.stop();
    if (!local) await conversation.session.close().catch(() => undefined);
  }
}
