import { afterEach, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { AUGGY_BIN, makeAgentFolder } from '../helpers/agent-fixture.js';
import { auggyPrint } from '../helpers/auggy-cli.js';
import { startChatServer, type ChatServer, type ReceivedRequest } from '../helpers/chat-server.js';
import { postRun, readEvents, runInput } from '../helpers/agui-events.js';
import { ServeScope } from '../helpers/serve-process.js';
import { loggedMessages, transcriptProblems } from '../helpers/transcript-check.js';

let chat: ChatServer | undefined;
const scope = new ServeScope();
afterEach(async () => {
  await chat?.close();
  chat = undefined;
  await scope.stop();
});

const BOARD = 'type: board\nconfig:\n  lines:\n    - name: status\n      owner: both\n';

function lastUserText(request: ReceivedRequest): string {
  const last = request.body.messages.filter((m) => m.role === 'user').at(-1);
  return typeof last?.content === 'string' ? last.content : '';
}

/**
 * "slow ..." reads the board, then answers with a stream held open after its first word until
 * `release()`; anything else is answered at once.
 */
function slowAndQuick(request: ReceivedRequest) {
  const slow = lastUserText(request).startsWith('slow');
  const afterTool = request.body.messages.at(-1)?.role === 'tool';
  if (slow && !afterTool) return { toolCalls: [{ name: 'board_read', args: {} }] };
  if (slow) return { text: 'Slow answer, word by word.', hold: true };
  return { text: `Quick answer to ${lastUserText(request)}.` };
}

const printEnv = { OPENAI_API_KEY: '', AUGGY_MODEL: '', AUGGY_BASE_URL: '', AUGGY_API_KEY: '', NO_COLOR: '1' };

function startPrint(dir: string, url: string, ...rest: string[]) {
  return execa('node', [AUGGY_BIN, 'run', dir, '--print', '--model', 'openai-compatible:test', '--base-url', url, ...rest], { reject: false, env: printEnv });
}

function eventsFile(dir: string, sessionId: string): string {
  return join(dir, '.auggy', 'sessions', sessionId, 'events.jsonl');
}

async function firstSession(dir: string, url: string): Promise<string> {
  const first = await auggyPrint(dir, url, 'hello', '--output', 'json');
  expect(first.exitCode).toBe(0);
  return (JSON.parse(first.stdout) as { sessionId: string }).sessionId;
}

describe('one writer per session across processes', () => {
  it('a second --print on a session in use is refused at once with exit 2; the session stays valid for a strict transcript check', async () => {
    chat = await startChatServer(slowAndQuick);
    const dir = makeAgentFolder({ augments: ['turnControl', 'board'], files: { 'augments/board/augment.yaml': BOARD } });
    const sessionId = await firstSession(dir, chat.url);

    const slow = startPrint(dir, chat.url, 'slow one', '--session', sessionId);
    await chat.held();
    const requestsBefore = chat.requests.length;
    const second = await auggyPrint(dir, chat.url, 'quick one', '--session', sessionId);
    expect(second.exitCode).toBe(2);
    expect(second.stderr.trim()).toBe(`auggy: session ${sessionId} is in use by another auggy (pid ${slow.pid}); wait for it or use another session`);
    // Refused before anything was sent.
    expect(chat.requests.length).toBe(requestsBefore);

    chat.release();
    expect((await slow).exitCode).toBe(0);
    expect(transcriptProblems(eventsFile(dir, sessionId))).toEqual([]);
    const after = await auggyPrint(dir, chat.url, 'after', '--session', sessionId);
    expect(after.exitCode).toBe(0);
    expect(transcriptProblems(eventsFile(dir, sessionId))).toEqual([]);
    const users = loggedMessages(eventsFile(dir, sessionId))
      .filter((m) => m.role === 'user')
      .map((m) => m.text);
    expect(users).toEqual(['hello', 'slow one', 'after']);
    expect(existsSync(join(dir, '.auggy', 'sessions', sessionId, 'writer.lock'))).toBe(false);
  });

  it('a lock left by a killed auggy is taken over with one warning, and the turn runs', async () => {
    chat = await startChatServer(slowAndQuick);
    const dir = makeAgentFolder({ augments: ['turnControl', 'board'], files: { 'augments/board/augment.yaml': BOARD } });
    const sessionId = await firstSession(dir, chat.url);
    const killed = startPrint(dir, chat.url, 'slow one', '--session', sessionId);
    await chat.held();
    killed.kill('SIGKILL');
    await killed;
    const lockFile = join(dir, '.auggy', 'sessions', sessionId, 'writer.lock');
    expect(JSON.parse(readFileSync(lockFile, 'utf8'))).toMatchObject({ pid: killed.pid });

    const next = await auggyPrint(dir, chat.url, 'quick one', '--session', sessionId);
    expect(next.exitCode).toBe(0);
    expect(next.stdout).toBe('Quick answer to quick one.');
    const warnings = next.stderr
      .trim()
      .split('\n')
      .filter((line) => line !== '');
    expect(warnings).toEqual([`auggy: warning: session ${sessionId} was locked by auggy pid ${killed.pid}, which is no longer running; it was taken over`]);
    expect(existsSync(lockFile)).toBe(false);
    expect(transcriptProblems(eventsFile(dir, sessionId))).toEqual([]);
  });

  it('serve answers 409 for a thread a --print is running on', async () => {
    const dir = makeAgentFolder({ augments: ['turnControl', 'board'], files: { 'augments/board/augment.yaml': BOARD } });
    const { chat: model, serve } = await scope.start(dir, slowAndQuick);
    const threadId = 'shared-thread';
    expect((await readEvents(await postRun(serve.url, runInput(threadId, 'hello')))).at(-1)).toMatchObject({ type: 'RUN_FINISHED' });

    const printing = startPrint(dir, model.url, 'slow one', '--session', threadId);
    await model.held();
    const refused = await postRun(serve.url, runInput(threadId, 'quick one'));
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({ error: `session ${threadId} is in use by another auggy (pid ${printing.pid}); wait for it or use another session` });
    model.release();
    expect((await printing).exitCode).toBe(0);

    // The server's kept conversation learns the --print turn before its next run.
    const next = await readEvents(await postRun(serve.url, runInput(threadId, 'and now')));
    expect(next.at(-1)).toMatchObject({ type: 'RUN_FINISHED', result: { status: 'completed' } });
    const sent = model.requests
      .at(-1)
      ?.body.messages.filter((m) => m.role === 'user')
      .map((m) => m.content);
    expect(sent).toEqual(['hello', 'slow one', 'and now']);
    expect(transcriptProblems(eventsFile(dir, threadId))).toEqual([]);
  });

  it('a --print on a thread serve is running is refused with exit 2', async () => {
    const dir = makeAgentFolder({ augments: ['turnControl', 'board'], files: { 'augments/board/augment.yaml': BOARD } });
    const { chat: model, serve } = await scope.start(dir, slowAndQuick);
    const threadId = 'served-thread';
    const response = await postRun(serve.url, runInput(threadId, 'slow one'));
    expect(response.status).toBe(200);
    await model.held();
    const refused = await auggyPrint(dir, model.url, 'quick one', '--session', threadId);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr.trim()).toBe(`auggy: session ${threadId} is in use by another auggy (pid ${serve.pid}); wait for it or use another session`);
    model.release();
    expect((await readEvents(response)).at(-1)).toMatchObject({ type: 'RUN_FINISHED', result: { status: 'completed' } });
    expect(transcriptProblems(eventsFile(dir, threadId))).toEqual([]);
    expect(readdirSync(join(dir, '.auggy', 'sessions', threadId))).not.toContain('writer.lock');
  });
});
