import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpAgent } from '@ag-ui/client';
import { startChatServer, type ChatServer } from '../helpers/chat-server.js';
import { checkRun, clientRun, interruptModel, interruptsOf } from '../helpers/interrupt-agent.js';
import { makeAgentFolder } from '../helpers/agent-fixture.js';
import { postgresAvailable, usePostgres } from '../helpers/postgres.js';
import { THREE_LINES } from '../helpers/board-fixture.js';
import { startServe, type ServeProcess } from '../helpers/serve-process.js';

const pg = usePostgres();
let chat: ChatServer;
const running: ServeProcess[] = [];

beforeAll(async () => {
  chat = await startChatServer(interruptModel);
});
afterAll(async () => {
  for (const serve of running) serve.signal('SIGKILL');
  await Promise.all(running.map((serve) => serve.exited));
  await chat.close();
});

async function serveOn(dir: string, args: string[] = []): Promise<ServeProcess> {
  const serve = await startServe(dir, ['--model', 'openai-compatible:test', '--base-url', chat.url, ...args]);
  running.push(serve);
  return serve;
}

const FORM_ANSWER = { service: 'api', replicas: 2, env: 'staging' };

function lastToolResult(): unknown {
  const sent = chat.requests
    .at(-1)
    ?.body.messages.filter((m) => m.role === 'tool')
    .at(-1);
  return JSON.parse(String(sent?.content));
}

describe('open interrupts live in the session', () => {
  it('a questionnaire asked before kill -9 of serve is answered by a resume to the restarted server', async () => {
    const dir = makeAgentFolder({ augments: ['turnControl', 'questions'] });
    const first = await serveOn(dir);
    const agent = new HttpAgent({ url: `${first.url}/agent/run` });
    const [asked] = interruptsOf(await clientRun(agent, { text: 'plan a deploy' }));
    expect(existsSync(join(dir, '.auggy', 'sessions', agent.threadId, 'interrupts.json'))).toBe(true);
    first.signal('SIGKILL');
    await first.exited;

    const second = await serveOn(dir);
    agent.url = `${second.url}/agent/run`;
    const done = await clientRun(agent, { resume: [{ interruptId: asked.id, status: 'resolved', payload: FORM_ANSWER }] });
    expect(done.failure).toBeUndefined();
    checkRun(done, agent.threadId);
    expect(done.finished[0]).toMatchObject({ outcome: 'success', result: { status: 'completed' } });
    expect(lastToolResult()).toEqual({ status: 'answered', answers: FORM_ANSWER });
    expect(existsSync(join(dir, '.auggy', 'sessions', agent.threadId, 'interrupts.json'))).toBe(false);
  });

  it.skipIf(!postgresAvailable)('on PostgreSQL, a question asked on one replica is answered on the other', async () => {
    const { url } = await pg.freshDatabase();
    const dirA = makeAgentFolder({ augments: ['turnControl', 'questions'] });
    const dirB = join(mkdtempSync(join(tmpdir(), 'auggy-replica-')), 'agent');
    cpSync(dirA, dirB, { recursive: true });
    const [a, b] = await Promise.all([serveOn(dirA, ['--store', url]), serveOn(dirB, ['--store', url])]);
    const agent = new HttpAgent({ url: `${a.url}/agent/run` });
    const [asked] = interruptsOf(await clientRun(agent, { text: 'plan a deploy' }));
    agent.url = `${b.url}/agent/run`;
    const done = await clientRun(agent, { resume: [{ interruptId: asked.id, status: 'resolved', payload: FORM_ANSWER }] });
    expect(done.failure).toBeUndefined();
    checkRun(done, agent.threadId);
    expect(done.finished[0]).toMatchObject({ outcome: 'success', result: { status: 'completed' } });
    expect(lastToolResult()).toEqual({ status: 'answered', answers: FORM_ANSWER });
  });

  it("the board's STATE_SNAPSHOT comes just before the interrupt, with the client's own keys kept", async () => {
    const dir = makeAgentFolder({ augments: ['turnControl', 'questions', 'board'], files: { 'augments/board/augment.yaml': THREE_LINES } });
    const serve = await serveOn(dir);
    const agent = new HttpAgent({ url: `${serve.url}/agent/run`, initialState: { theme: 'dark' } });
    const record = await clientRun(agent, { text: 'plan a deploy' });
    checkRun(record, agent.threadId);
    interruptsOf(record);
    const [beforeLast, last] = record.events.slice(-2);
    expect(last.type).toBe('RUN_FINISHED');
    expect(beforeLast).toMatchObject({ type: 'STATE_SNAPSHOT', snapshot: { theme: 'dark', board: expect.objectContaining({ notes: expect.anything() }) } });
  });

  it("request_input's interrupt carries its expiresAt in the session log's RUN_FINISHED, the same object the client got", async () => {
    const dir = makeAgentFolder({ augments: ['turnControl', 'questions'] });
    const serve = await serveOn(dir, ['--interrupt-wait', '3600']);
    const agent = new HttpAgent({ url: `${serve.url}/agent/run` });
    const [asked] = interruptsOf(await clientRun(agent, { text: 'ask Which region?' }));
    expect(asked).toMatchObject({ reason: 'input_required', expiresAt: expect.any(String) });
    const logged = readFileSync(join(dir, '.auggy', 'sessions', agent.threadId, 'events.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { event?: { type?: string; result?: { interrupts?: unknown[] } } })
      .flatMap((entry) => (entry.event?.type === 'RUN_FINISHED' ? (entry.event.result?.interrupts ?? []) : []));
    expect(logged).toEqual([asked]);
  });

  it('--interrupt-wait sets expiresAt; an expired question is answered as cancelled and blocks nothing', async () => {
    const dir = makeAgentFolder({ augments: ['turnControl', 'questions'] });
    const serve = await serveOn(dir, ['--interrupt-wait', '1']);
    const agent = new HttpAgent({ url: `${serve.url}/agent/run` });
    const before = Date.now();
    const [asked] = interruptsOf(await clientRun(agent, { text: 'plan a deploy' }));
    expect(asked.expiresAt).toBeDefined();
    const expires = Date.parse(asked.expiresAt ?? '');
    expect(expires).toBeGreaterThan(before);
    expect(expires).toBeLessThanOrEqual(Date.now() + 1000);
    // Past its expiry, by the server's clock as well as ours.
    while (Date.now() <= expires + 50) await new Promise((resolve) => setTimeout(resolve, 100));
    // HttpAgent itself only lets a cancellation through for an expired interrupt.
    const late = await clientRun(agent, { resume: [{ interruptId: asked.id, status: 'resolved', payload: FORM_ANSWER }] });
    expect(late.failure?.message).toMatch(/expired/);
    const done = await clientRun(agent, { resume: [{ interruptId: asked.id, status: 'cancelled' }] });
    checkRun(done, agent.threadId);
    expect(lastToolResult()).toEqual({ status: 'no-answer', reason: 'declined' });

    // A client that resolves it anyway is told it expired, and it counts as cancelled.
    const [again] = interruptsOf(await clientRun(agent, { text: 'plan a deploy' }));
    while (Date.now() <= Date.parse(again.expiresAt ?? '') + 50) await new Promise((resolve) => setTimeout(resolve, 100));
    const body = {
      threadId: agent.threadId,
      runId: 'run-late',
      messages: [],
      tools: [],
      context: [],
      state: {},
      forwardedProps: {},
      protocolVersion: '1.0.0',
      resume: [{ interruptId: again.id, status: 'resolved', payload: FORM_ANSWER }],
    };
    const response = await fetch(`${serve.url}/agent/run`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const text = await response.text();
    expect(text).toContain(`${again.id} expired at`);
    expect(lastToolResult()).toEqual({ status: 'no-answer', reason: 'declined' });
  });
});
