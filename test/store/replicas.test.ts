import { afterEach, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpAgent, type BaseEvent, type Message } from '@ag-ui/client';
import { postRun, runInput, validateEach } from '../helpers/agui-events.js';
import { boardFolder, systemPrompt } from '../helpers/board-fixture.js';
import { startChatServer, type ChatReply, type ChatServer } from '../helpers/chat-server.js';
import { describeWithPostgres, usePostgres } from '../helpers/postgres.js';
import { startServe, type ServeProcess } from '../helpers/serve-process.js';

const pg = usePostgres();

let running: ServeProcess[] = [];
let chats: ChatServer[] = [];
afterEach(async () => {
  for (const serve of running) serve.signal('SIGKILL');
  await Promise.all(running.map((serve) => serve.exited));
  await Promise.all(chats.map((chat) => chat.close()));
  running = [];
  chats = [];
});

/** The same agent folder on two "machines": each replica has its own copy, as it would. */
function twoCopies(): [string, string] {
  const original = boardFolder();
  const second = join(mkdtempSync(join(tmpdir(), 'auggy-replica-')), 'agent');
  cpSync(original, second, { recursive: true });
  return [original, second];
}

interface Replicas {
  a: ServeProcess;
  b: ServeProcess;
  chat: ChatServer;
  url: string;
  database: string;
  dirs: [string, string];
}

/** Two `auggy serve` processes on one fresh database, their model one loopback server. */
async function startReplicas(replies: (index: number) => ChatReply, env: Record<string, string> = {}): Promise<Replicas> {
  const { url, database } = await pg.freshDatabase();
  const chat = await startChatServer((_request, index) => replies(index));
  chats.push(chat);
  const dirs = twoCopies();
  const args = ['--store', url, '--model', 'openai-compatible:test', '--base-url', chat.url];
  // Started together: the schema is migrated once under the advisory lock whichever comes first.
  const [a, b] = await Promise.all(dirs.map((dir) => startServe(dir, args, env)));
  running.push(a, b);
  return { a, b, chat, url, database, dirs };
}

function agentFor(serve: ServeProcess, threadId: string, messages: Message[] = []): HttpAgent {
  return new HttpAgent({ url: `${serve.url}/agent/run`, threadId, initialMessages: messages });
}

interface ClientRun {
  events: BaseEvent[];
  result: unknown;
  failure?: Error;
}

async function clientRun(agent: HttpAgent, text: string, onEvent: (event: BaseEvent) => void = () => undefined): Promise<ClientRun> {
  const run: ClientRun = { events: [], result: undefined };
  agent.addMessage({ id: randomUUID(), role: 'user', content: text });
  try {
    await agent.runAgent(
      { runId: `run-${randomUUID()}` },
      {
        onEvent: ({ event }) => {
          run.events.push(event);
          onEvent(event);
        },
        onRunFinishedEvent: (params) => {
          run.result = 'result' in params ? params.result : undefined;
        },
      },
    );
  } catch (error) {
    run.failure = error instanceof Error ? error : new Error(String(error));
  }
  validateEach(run.events);
  return run;
}

function postBoard(serve: ServeProcess, body: unknown): Promise<Response> {
  return fetch(`${serve.url}/agent/board`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

function nothingInFolders(dirs: readonly string[]): void {
  for (const dir of dirs) expect(existsSync(join(dir, '.auggy', 'sessions'))).toBe(false);
}

async function userTexts(database: string, threadId: string): Promise<string[]> {
  const rows = await pg
    .cluster()
    .query<{ text: string }>(database, "SELECT entry->>'text' AS text FROM auggy_events WHERE session_id = $1 AND kind = 'user' ORDER BY id", [threadId]);
  return rows.map((row) => row.text);
}

const ASK: ChatReply = { toolCalls: [{ name: 'request_input', args: { prompt: 'Which service: api-west or api-east?' } }] };

describeWithPostgres('two serve replicas on one PostgreSQL store', () => {
  it('a question asked through one replica is answered through the other, with the whole thread', async () => {
    const { a, b, chat, dirs, database } = await startReplicas((index) => (index === 0 ? ASK : { text: 'Deploying api-west.' }));
    const threadId = `thread-${randomUUID()}`;
    const first = agentFor(a, threadId);
    const asked = await clientRun(first, 'deploy the api');
    expect(asked.failure).toBeUndefined();
    // A 1.0 client reads the question as an interrupt, answered by the next run's resume.
    expect(first.pendingInterrupts).toEqual([expect.objectContaining({ reason: 'input_required', message: 'Which service: api-west or api-east?' })]);

    const second = agentFor(b, threadId, first.messages);
    const resume = first.pendingInterrupts.map((interrupt) => ({ interruptId: interrupt.id, status: 'resolved' as const, payload: 'api-west' }));
    const answered = await second.runAgent({ runId: `run-${randomUUID()}`, resume });
    expect(answered.result).toEqual({ status: 'completed' });

    // Replica b sent the model the whole thread, though it never saw the question itself.
    const sent = chat.requests[1].body.messages.filter((message) => message.role !== 'system');
    // The question itself is the visible reply, so it is in the thread as the assistant's words.
    expect(sent.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'user']);
    expect(sent[0].content).toBe('deploy the api');
    expect(sent[1].tool_calls?.[0].function.name).toBe('request_input');
    expect(sent[3].content).toBe('Which service: api-west or api-east?');
    expect(sent[4].content).toBe('api-west');
    expect(await userTexts(database, threadId)).toEqual(['deploy the api', 'api-west']);
    nothingInFolders(dirs);
    const migrations = await pg.cluster().query(database, 'SELECT version FROM auggy_schema_migrations');
    expect(migrations).toHaveLength(1);
  });

  it('a second run on a busy thread gets 409 on the other replica too, and the thread is free once the run ends', async () => {
    const { a, b, chat } = await startReplicas((index) => (index === 0 ? { text: 'working on it', hold: true } : { text: 'second run done' }));
    const threadId = `thread-${randomUUID()}`;
    const inFlight = clientRun(agentFor(a, threadId), 'start something long');
    await chat.held();

    const elsewhere = await postRun(b.url, runInput(threadId, 'me too'));
    expect(elsewhere.status).toBe(409);
    expect(((await elsewhere.json()) as { error: string }).error).toMatch(new RegExp(`^session ${threadId} is in use by another auggy \\(pid ${a.pid} on `));
    const here = await postRun(a.url, runInput(threadId, 'me too'));
    expect(here.status).toBe(409);

    chat.release();
    expect((await inFlight).result).toEqual({ status: 'completed' });
    const after = await clientRun(agentFor(b, threadId), 'now it is free');
    expect(after.result).toEqual({ status: 'completed' });
  });

  it('a replica killed mid-run frees its thread once the lease expires', async () => {
    const { a, b, chat, database } = await startReplicas((index) => (index === 0 ? { text: 'about to be killed', hold: true } : { text: 'picked up' }), {
      AUGGY_STORE_LEASE_MS: '1500',
    });
    const threadId = `thread-${randomUUID()}`;
    // A plain request: its stream is cut when the replica dies, and nothing may be left unhandled.
    const doomed = postRun(a.url, runInput(threadId, 'begin on a'))
      .then((response) => response.text())
      .catch(() => 'cut off');
    await chat.held();
    a.signal('SIGKILL');
    await a.exited;
    await doomed;

    // Until the lease runs out the thread is still a's; after, b runs it.
    const statuses: number[] = [];
    for (;;) {
      const response = await postRun(b.url, runInput(threadId, 'continue on b'));
      statuses.push(response.status);
      if (response.status !== 409) {
        await response.text();
        break;
      }
      expect(((await response.json()) as { error: string }).error).toMatch(/is in use by another auggy/);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(statuses[statuses.length - 1]).toBe(200);
    expect(await userTexts(database, threadId)).toEqual(['begin on a', 'continue on b']);
  });

  const boardCases = [
    { name: 'POST /agent/board on the same replica', on: 'a', via: 'board' },
    { name: 'POST /agent/board on the other replica', on: 'b', via: 'board' },
    { name: 'AG-UI state in a new run input on the other replica', on: 'b', via: 'state' },
  ] as const;

  it.each(boardCases)('a board write during a run reaches its next round and its client: $name', async ({ on, via }) => {
    const replicas = await startReplicas((index) =>
      index === 0 ? { text: 'reading the board', toolCalls: [{ name: 'board_read', args: {} }], hold: true } : { text: 'done' },
    );
    const { a, chat } = replicas;
    const threadId = `thread-${randomUUID()}`;
    let sawDelta: () => void = () => undefined;
    const deltaSeen = new Promise<void>((resolve) => (sawDelta = resolve));
    const run = clientRun(agentFor(a, threadId), 'work through the queue', (event) => {
      if (event.type === 'STATE_DELTA' && JSON.stringify(event).includes('review the docs')) sawDelta();
    });
    await chat.held();

    const target = replicas[on];
    if (via === 'board') {
      const response = await postBoard(target, { threadId, lines: { queue: 'review the docs' } });
      expect(response.status).toBe(200);
      const body = (await response.json()) as { board: Record<string, { text: string }> };
      expect(body.board.queue.text).toBe('review the docs');
    } else {
      const response = await postRun(target.url, runInput(threadId, 'another message', { state: { board: { queue: { text: 'review the docs' } } } }));
      expect(response.status).toBe(409);
      expect(((await response.json()) as { error: string }).error).toMatch(/the state it carried was applied/);
    }
    // The run in flight tells its client before its next round begins.
    await deltaSeen;
    chat.release();
    const finished = await run;
    expect(finished.result).toEqual({ status: 'completed' });
    expect(systemPrompt(chat.requests[1])).toContain('review the docs');
  });

  it('POST /agent/board refuses what --board refuses, changing nothing', async () => {
    const { a, b } = await startReplicas(() => ({ text: 'ok' }));
    const threadId = `thread-${randomUUID()}`;
    expect((await clientRun(agentFor(a, threadId), 'hello')).result).toEqual({ status: 'completed' });
    const agentsLine = await postBoard(b, { threadId, lines: { queue: 'fine', progress: "not the person's" } });
    expect(agentsLine.status).toBe(400);
    expect(((await agentsLine.json()) as { error: string }).error).toMatch(/progress/);
    const unknown = await postBoard(b, { threadId: 'never-started', lines: { queue: 'x' } });
    expect(unknown.status).toBe(404);
    const shape = await postBoard(b, { threadId, lines: 'queue=x' });
    expect(shape.status).toBe(400);
    const board = await postBoard(a, { threadId, lines: { notes: 'both may write this' } });
    const body = (await board.json()) as { board: Record<string, { text: string }> };
    // The refused write left queue as it was.
    expect(body.board.queue.text).toBe('');
    expect(body.board.notes.text).toBe('both may write this');
  });
});
