import type { ContextReading } from '../../kernel/context/context-meter.js';
import { HttpError } from '../http/http-io.js';
import { asNoThreadYet, clientLinesOf, type BesideRunContext } from './beside-run.js';

export interface CompactAnswer {
  lines: string[];
  isError: boolean;
  state: Record<string, unknown>;
  context: ContextReading;
}

/**
 * `/compact [what to keep]` on a thread from POST /agent/command, as the chat's /compact: the
 * earlier conversation replaced by a summary now. It rewrites the transcript, so it takes the
 * thread as a run does (409 while one is in flight) and answers the line the conversation said.
 */
export async function compactThread(context: BesideRunContext, threadId: string, keepHint: string): Promise<CompactAnswer> {
  // A thread that does not exist yet is refused as any command's is, not made by compacting it.
  const probe = await context.store.open({ sessionId: threadId, createIfMissing: false, observer: true }).catch((error: unknown) => {
    throw asNoThreadYet(error, threadId);
  });
  await probe.close().catch(() => undefined);
  const claim = context.threads.claim(threadId);
  if (!claim) throw new HttpError(409, `/compact waits until the run on thread ${threadId} finishes; send it again then`);
  try {
    const conversation = await context.threads.conversation(threadId);
    const said = clientLinesOf(conversation, context, threadId);
    try {
      const result = await conversation.compact(keepHint);
      await conversation.session.flush();
      return {
        lines: said.lines.length > 0 ? said.lines : result.ok ? [] : [result.clientWhy ?? result.why],
        isError: !result.ok,
        state: { ...conversation.snapshot(), ...(conversation.sharedState() ?? {}) },
        context: conversation.contextReading(),
      };
    } finally {
      said.stop();
      context.threads.keep(threadId, conversation);
    }
  } finally {
    claim.release();
  }
}
