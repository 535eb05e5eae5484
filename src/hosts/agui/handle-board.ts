import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HostInputResult } from '../../kernel/augment.js';
import { isValidSessionId } from '../../session/ids.js';
import { besideRun, type BesideRunContext } from './beside-run.js';
import { HttpError, readJsonBody, sendJson } from '../http/http-io.js';

interface BoardRequest {
  threadId: string;
  /** `line=text`, as `--board` takes them. */
  flags: string[];
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const SHAPE = 'send {"threadId": "<thread>", "lines": {"<line>": "<text>"}}';

function parseBoardRequest(body: unknown): BoardRequest {
  if (!isPlainObject(body)) throw new HttpError(400, `the body is not a board write; ${SHAPE}`);
  const { threadId, lines } = body;
  if (typeof threadId !== 'string' || !isValidSessionId(threadId)) {
    throw new HttpError(400, `threadId must name a thread (letters, digits, - and _, at most 128 characters); ${SHAPE}`);
  }
  if (!isPlainObject(lines) || Object.keys(lines).length === 0) throw new HttpError(400, `lines must be an object of one or more lines; ${SHAPE}`);
  const flags = Object.entries(lines).map(([name, text]) => {
    if (typeof text !== 'string') throw new HttpError(400, `line "${name}" must be text; ${SHAPE}`);
    if (name.includes('=')) throw new HttpError(400, `"${name}" is not a board line name`);
    return `${name}=${text}`;
  });
  return { threadId, flags };
}

/** A refused line in the client's words: the reason, which names the line, without the command line's flag. */
function lineRefused(refused: HostInputResult): HttpError {
  return new HttpError(400, refused.reason ?? refused.message);
}

/**
 * POST /agent/board: the person writes their own lines without waiting for a run, with the
 * checks `--board` has (every line checked before any is written). Accepted while a run is in
 * flight on this thread on any replica; that run's next round reads the lines and its clients
 * get the STATE_DELTA. Answers the board as it now is.
 */
export async function handleBoard(req: IncomingMessage, res: ServerResponse, context: BesideRunContext & { headers: Record<string, string> }): Promise<void> {
  const request = parseBoardRequest(await readJsonBody(req));
  const outcome = await besideRun(context, request.threadId, { createIfMissing: false }, async (conversation) => {
    const shared = conversation.sharedState()?.board;
    if (shared === undefined) throw new HttpError(404, 'this agent has no board; add the board augment to agent.yaml');
    for (const flag of request.flags) {
      const refused = conversation.checkHostInput('board', flag);
      if (refused) throw lineRefused(refused);
    }
    for (const flag of request.flags) {
      const applied = await conversation.hostInput('board', flag);
      if (!applied.ok) throw lineRefused(applied);
    }
    return conversation.sharedState()?.board;
  });
  context.log(`thread ${request.threadId} board: ${request.flags.map((flag) => flag.slice(0, flag.indexOf('='))).join(', ')} written`);
  sendJson(res, 200, { threadId: request.threadId, board: outcome.result }, context.headers);
}
