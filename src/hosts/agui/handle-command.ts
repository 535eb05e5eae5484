import type { IncomingMessage, ServerResponse } from 'node:http';
import { isValidSessionId } from '../../session/ids.js';
import { besideRun, type BesideRunContext } from './beside-run.js';
import { compactThread } from './compact-thread.js';
import { HttpError, readJsonBody, sendJson } from '../http/http-io.js';
import { parseCommandLine, runCommand } from '../slash-command.js';

const SHAPE = 'send {"threadId": "<thread>", "command": "/ask clear"}';

function parseCommandRequest(body: unknown): { threadId: string; name: string; args: string } {
  const fields = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  const { threadId, command } = fields;
  if (typeof threadId !== 'string' || !isValidSessionId(threadId)) {
    throw new HttpError(400, `threadId must name a thread (letters, digits, - and _, at most 128 characters); ${SHAPE}`);
  }
  const parsed = typeof command === 'string' ? parseCommandLine(command) : undefined;
  if (!parsed || parsed.name === '') throw new HttpError(400, `command must be a slash command such as /ask; ${SHAPE}`);
  return { threadId, name: parsed.name.toLowerCase(), args: parsed.args };
}

/**
 * POST /agent/command: one of the agent's augment commands (`/ask`, `/ask <text>`, `/ask clear`,
 * `/board`...) on a thread, as the chat runs them. A command that may run during a turn runs
 * beside a run in flight; any other waits for the thread to be idle (409 meanwhile). Answers the
 * command's lines and the thread's state after it. `/compact` is the conversation's own, as in the
 * chat, and runs as the thread's writer (compact-thread.ts). A command that throws answers its
 * failure as an isError line. A command that starts a turn (`/goal <condition>`) does what it does
 * here (the goal is set) and says, in `turn`, that the turn it asks for runs only through POST
 * /agent/run, which has a stream to follow it: this route answers at once.
 */
export async function handleCommand(req: IncomingMessage, res: ServerResponse, context: BesideRunContext & { headers: Record<string, string> }): Promise<void> {
  const request = parseCommandRequest(await readJsonBody(req));
  const running = context.threads.active(request.threadId) !== undefined;
  if (request.name === 'compact') {
    sendJson(res, 200, { threadId: request.threadId, ...(await compactThread(context, request.threadId, request.args)) }, context.headers);
    return;
  }
  const { result } = await besideRun(context, request.threadId, { createIfMissing: false }, async (conversation) => {
    const commands = conversation.commands();
    const command = commands.find((candidate) => candidate.name.toLowerCase() === request.name);
    if (!command) {
      const names = commands.map((candidate) => `/${candidate.name}`).join(', ');
      throw new HttpError(404, `this agent has no command /${request.name}; ${names === '' ? 'its augments add none' : `its commands are ${names}`}`);
    }
    if (running && !command.duringTurn)
      throw new HttpError(409, `/${command.name} waits until the run on thread ${request.threadId} finishes; send it again then`);
    const output = await runCommand(command, request.args);
    // The turn it asks for is a run's, with a stream to follow it; this route answers at once.
    const turn =
      output.startTurn && !output.isError
        ? { turn: `/${command.name} took effect; the turn it starts runs only through POST /agent/run: send the command there as a message to run it` }
        : {};
    return { lines: output.lines, isError: output.isError === true, ...turn, state: { ...conversation.snapshot(), ...(conversation.sharedState() ?? {}) } };
  });
  sendJson(res, 200, { threadId: request.threadId, ...result }, context.headers);
}
