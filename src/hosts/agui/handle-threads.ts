import { EventType, type Event as AguiEvent } from '@ag-ui/core';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { loggedKernelEvent, systemLineEvent } from '../../kernel/events.js';
import { continuedLine } from '../continued-turn.js';
import type { SessionEntry } from '../../session/entries.js';
import { attachmentRefsOf } from '../../session/attachments.js';
import { isValidSessionId } from '../../session/ids.js';
import { createQuestionNarrator, textMessageEvents } from '../question-text.js';
import { besideRun, type BesideRunContext } from './beside-run.js';
import { toAguiEvent, terminalEvent } from './event-map.js';
import { readHeld } from '../interrupts/held-interrupts.js';
import { HttpError, sendJson } from '../http/http-io.js';

/** The CUSTOM event naming the images a user message carried, after the message in a thread's history. */
export const ATTACHMENTS_EVENT = 'auggy.attachments';

type ThreadsContext = BesideRunContext & { headers: Record<string, string> };

/** GET /agent/threads: the agent's threads (its sessions where something was said), newest first. */
export async function handleThreadList(res: ServerResponse, context: ThreadsContext): Promise<void> {
  const summaries = await context.store.summaries();
  const threads = summaries.map((summary) => ({
    threadId: summary.id,
    updatedAt: summary.updatedAt,
    firstMessage: summary.firstMessage,
    ended: summary.ended,
    ...(summary.question !== undefined ? { question: summary.question } : {}),
  }));
  sendJson(res, 200, { threads }, context.headers);
}

/**
 * A thread's log as the AG-UI events its runs streamed, the person's messages as user text
 * messages among them, so a page draws a resumed thread with the fold that draws a live run.
 * What a client reads only in its short form (CUSTOM values, failure messages) is that form here too.
 */
export function historyEvents(threadId: string, entries: readonly SessionEntry[]): AguiEvent[] {
  const events: AguiEvent[] = [];
  // The questions read as text, as the run's stream narrated them (the log keeps only their events).
  const narrate = createQuestionNarrator();
  let userMessages = 0;
  for (const entry of entries) {
    if (entry.kind === 'user' && entry.by !== undefined) {
      // An augment's directive (a goal's next turn) is not something the person said: the line
      // the chat and ACP show in its place.
      const line = toAguiEvent(systemLineEvent(continuedLine(entry.by)));
      if (line) events.push(line);
      continue;
    }
    if (entry.kind === 'user') {
      const messageId = entry.messageId ?? `user-${++userMessages}`;
      events.push({ type: EventType.TEXT_MESSAGE_START, messageId, role: 'user' });
      events.push({ type: EventType.TEXT_MESSAGE_CONTENT, messageId, delta: entry.text === '' ? ' ' : entry.text });
      events.push({ type: EventType.TEXT_MESSAGE_END, messageId });
      const attachments = attachmentRefsOf(entry.attachments);
      // What the message carried, by id: a page fetches each from GET /agent/attachment.
      if (attachments.length > 0) {
        events.push({
          type: EventType.CUSTOM,
          name: ATTACHMENTS_EVENT,
          value: {
            messageId,
            attachments: attachments.map((attachment) => ({
              id: attachment.ref,
              mediaType: attachment.mediaType,
              size: attachment.size,
              ...(attachment.name !== undefined ? { name: attachment.name } : {}),
            })),
          },
        });
      }
      continue;
    }
    if (entry.kind !== 'event') continue;
    const event = loggedKernelEvent(entry.event);
    const runId = entry.turnId ?? 'history';
    if (event.type === 'RUN_FINISHED') events.push(terminalEvent({ threadId, runId }, event.result));
    else if (event.type === 'RUN_ERROR') events.push(terminalEvent({ threadId, runId }, { status: 'failed', message: event.message, code: event.code }));
    else {
      const mapped = toAguiEvent(event);
      if (mapped) events.push(mapped);
      const narrated = narrate(event);
      if (narrated !== undefined) events.push(...textMessageEvents(narrated).flatMap((extra) => toAguiEvent(extra) ?? []));
    }
  }
  return events;
}

/**
 * GET /agent/thread?threadId=ID: what a page needs to show a thread it did not stream: its
 * history as events, the agents' state (board, ask, workflow), and the questions still open.
 */
export async function handleThread(req: IncomingMessage, res: ServerResponse, context: ThreadsContext): Promise<void> {
  const threadId = new URL(req.url ?? '/', 'http://auggy.invalid').searchParams.get('threadId') ?? '';
  if (!isValidSessionId(threadId)) {
    throw new HttpError(400, 'threadId must name a thread (letters, digits, - and _, at most 128 characters): GET /agent/thread?threadId=<thread>');
  }
  const { result } = await besideRun(context, threadId, { createIfMissing: false }, async (conversation) => {
    const held = readHeld(conversation.session, (line) => context.log(`thread ${threadId}: ${line}`));
    return {
      threadId,
      events: historyEvents(threadId, conversation.session.entries().entries),
      state: { ...conversation.snapshot(), ...(conversation.sharedState() ?? {}) },
      indicators: conversation.indicators(),
      context: conversation.contextReading(),
      interrupts: held.map((item) => item.interrupt),
      running: context.threads.active(threadId) !== undefined,
    };
  });
  sendJson(res, 200, result, context.headers);
}
