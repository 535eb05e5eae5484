import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { copyExample } from '../helpers/agent-fixture.js';
import type { ChatServer, ReceivedRequest } from '../helpers/chat-server.js';
import { EventReader, checkRunSequence, postRun, readEvents, runInput, textOf } from '../helpers/agui-events.js';
import { ServeScope, type ServeProcess } from '../helpers/serve-process.js';

const scope = new ServeScope();
afterEach(() => scope.stop());

function lastUserText(request: ReceivedRequest): string {
  const last = request.body.messages.filter((m) => m.role === 'user').at(-1);
  return typeof last?.content === 'string' ? last.content : '';
}

/**
 * A message containing "hold" gets an answer whose stream stays open after its first word until
 * `chat.release()`; anything else is answered at once.
 */
async function serveHolding(args: string[] = []): Promise<{ chat: ChatServer; serve: ServeProcess; dir: string }> {
  const dir = copyExample('demo');
  const started = await scope.start(
    dir,
    (request) =>
      /hold/.test(lastUserText(request)) ? { text: 'Slow answer, word by word.', hold: true } : { text: `Quick answer to ${lastUserText(request)}.` },
    args,
  );
  return { ...started, dir };
}

/** Opens a run and reads until the model's held stream has produced its first words. */
async function heldRun(url: string, threadId: string, signal?: AbortSignal) {
  const input = runInput(threadId, 'hold on, please');
  const response = await postRun(url, input, { signal });
  expect(response.status).toBe(200);
  const reader = new EventReader(response);
  await reader.until((event) => event.type === 'TEXT_MESSAGE_CONTENT');
  return { input, reader };
}

function sessionLines(dir: string, threadId: string): Record<string, unknown>[] {
  const file = join(dir, '.auggy', 'sessions', threadId, 'events.jsonl');
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('auggy serve: runs in flight', () => {
  it('different threads run concurrently: one completes while another is still streaming', async () => {
    const { serve, chat } = await serveHolding();
    const slow = await heldRun(serve.url, 'thread-slow');
    const quickInput = runInput('thread-quick', 'ping');
    const quick = await readEvents(await postRun(serve.url, quickInput));
    checkRunSequence(quick, quickInput);
    expect(quick.at(-1)).toMatchObject({ type: 'RUN_FINISHED', result: { status: 'completed' } });
    expect(textOf(quick)).toBe('Quick answer to ping.');
    // The slow run is still open; now let it finish.
    chat.release();
    const slowEvents = await slow.reader.rest();
    checkRunSequence(slowEvents, slow.input);
    expect(textOf(slowEvents)).toBe('Slow answer, word by word.');
    expect(slowEvents.at(-1)).toMatchObject({ type: 'RUN_FINISHED', result: { status: 'completed' } });
  });

  it('a second run on a thread with a run in progress is 409, and the first run is undisturbed', async () => {
    const { serve, chat, dir } = await serveHolding();
    const first = await heldRun(serve.url, 'thread-busy');
    const second = await postRun(serve.url, runInput('thread-busy', 'me too'));
    expect(second.status).toBe(409);
    expect(await second.json()).toEqual({ error: expect.stringMatching(/already in progress on thread thread-busy/) });
    chat.release();
    const events = await first.reader.rest();
    checkRunSequence(events, first.input);
    expect(events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', result: { status: 'completed' } });
    expect(chat.requests).toHaveLength(1);
    const users = sessionLines(dir, 'thread-busy').filter((line) => line.kind === 'user');
    expect(users.map((line) => line.text)).toEqual(['hold on, please']);
  });

  it('a client that disconnects mid-run cancels it; the session stays consistent and the thread usable', async () => {
    const { serve, chat, dir } = await serveHolding();
    const controller = new AbortController();
    const run = await heldRun(serve.url, 'thread-gone', controller.signal);
    controller.abort();
    await run.reader.cancel().catch(() => undefined);
    await serve.waitForStderr(new RegExp(`run ${run.input.runId} canceled \\(the client disconnected\\)`));

    const lines = sessionLines(dir, 'thread-gone');
    const finished = lines.filter((line) => (line.event as { type?: string } | undefined)?.type === 'RUN_FINISHED');
    expect(finished).toHaveLength(1);
    expect(finished[0].event).toMatchObject({ result: { status: 'canceled' } });

    // The thread is free again and its history carries the canceled exchange.
    const nextInput = runInput('thread-gone', 'are you there?');
    const next = await readEvents(await postRun(serve.url, nextInput));
    checkRunSequence(next, nextInput);
    expect(next.at(-1)).toMatchObject({ type: 'RUN_FINISHED', result: { status: 'completed' } });
    const messages = chat.requests.at(-1)?.body.messages ?? [];
    expect(messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['hold on, please', 'are you there?']);
  });
});

describe('auggy serve: SIGTERM', () => {
  it('lets a run in flight finish within the grace period, then exits 0', async () => {
    const { serve, chat } = await serveHolding(['--grace-ms', '600000']);
    const run = await heldRun(serve.url, 'thread-term');
    serve.signal('SIGTERM');
    await serve.waitForStderr(/shutting down: 1 run\(s\) in flight/);
    // No new work is accepted while it drains.
    const refused = await fetch(`${serve.url}/health`).then(
      (response) => response.status,
      () => 'refused',
    );
    expect([503, 'refused']).toContain(refused);
    chat.release();
    const events = await run.reader.rest();
    checkRunSequence(events, run.input);
    expect(events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', result: { status: 'completed' } });
    expect(await serve.exited).toBe(0);
  });

  it('cancels a run still going when the grace period ends: the client gets RUN_FINISHED canceled, exit 0', async () => {
    const { serve } = await serveHolding(['--grace-ms', '50']);
    const run = await heldRun(serve.url, 'thread-cut');
    serve.signal('SIGTERM');
    const events = await run.reader.rest();
    checkRunSequence(events, run.input);
    expect(events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', result: { status: 'canceled' }, outcome: { type: 'cancelled' } });
    expect(await serve.exited).toBe(0);
    expect(serve.stderr()).toMatch(/canceling 1 run\(s\) still in flight/);
  });

  it('with nothing in flight, exits 0 at once', async () => {
    const { serve } = await serveHolding();
    serve.signal('SIGTERM');
    expect(await serve.exited).toBe(0);
  });
});
