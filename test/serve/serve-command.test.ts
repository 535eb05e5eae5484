import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInput } from '../helpers/agui-events.js';
import { makeAgentFolder } from '../helpers/agent-fixture.js';
import { startChatServer } from '../helpers/chat-server.js';
import { startServe, type ServeProcess } from '../helpers/serve-process.js';
import { scriptedGoalFolder } from '../augments/goal/scripted-goal.js';

let serve: ServeProcess | undefined;

afterEach(async () => {
  serve?.signal('SIGKILL');
  await serve?.exited;
  serve = undefined;
});

async function post(path: string, body: unknown): Promise<Response> {
  if (!serve) throw new Error('no server');
  return fetch(`${serve.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify(body),
  });
}

describe('POST /agent/command', () => {
  it('a command that would start a turn takes effect and says where its turn runs; the same message through /agent/run runs the goal', async () => {
    const dir = scriptedGoalFolder();
    serve = await startServe(dir);
    const first = await post('/agent/run', runInput('t1', 'hello'));
    await first.text();
    const set = await post('/agent/command', { threadId: 't1', command: '/goal do three steps' });
    expect(set.status).toBe(200);
    expect(await set.json()).toMatchObject({
      isError: false,
      turn: '/goal took effect; the turn it starts runs only through POST /agent/run: send the command there as a message to run it',
      state: { goal: { condition: 'do three steps', turns: 0 } },
    });
    const run = await post('/agent/run', runInput('t1', '/goal do three steps'));
    expect(await run.text()).toContain('All three steps are done.');
    const goal = join(dir, '.auggy', 'sessions', 't1', 'goal.json');
    expect(existsSync(goal)).toBe(true);
    expect(JSON.parse(readFileSync(goal, 'utf8'))).toMatchObject({ status: 'achieved', turns: 3 });
  });

  it('a command that starts nothing answers its lines, and a word that is no command is one sentence', async () => {
    serve = await startServe(scriptedGoalFolder());
    const first = await post('/agent/run', runInput('t2', 'hello'));
    await first.text();
    const status = await post('/agent/command', { threadId: 't2', command: '  /goal  ' });
    expect(status.status).toBe(200);
    expect(await status.json()).toMatchObject({ lines: ['No goal is set. /goal <condition> sets one and starts working on it.'], isError: false });
    const bare = await post('/agent/command', { threadId: 't2', command: 'goal' });
    expect(bare.status).toBe(400);
  });
});

describe('POST /agent/command answers in the words a client may read', () => {
  it('a /compact whose summary the model server refused says so without quoting the server', async () => {
    const chat = await startChatServer([
      { text: 'One.' },
      { text: 'Two.' },
      { text: 'Three.' },
      { status: 500, errorMessage: 'upstream db-7.corp.internal:5432 refused the connection' },
      { status: 500, errorMessage: 'upstream db-7.corp.internal:5432 refused the connection' },
      { status: 500, errorMessage: 'upstream db-7.corp.internal:5432 refused the connection' },
    ]);
    try {
      const dir = makeAgentFolder({});
      serve = await startServe(dir, ['--model', 'openai-compatible:test', '--base-url', chat.url]);
      for (const text of ['first', 'second', 'third']) await (await post('/agent/run', runInput('t3', text))).text();
      const compacted = await post('/agent/command', { threadId: 't3', command: '/compact' });
      const body = (await compacted.json()) as { lines: string[]; isError: boolean };
      expect(body.lines).toEqual(['the conversation was not compacted: the summary could not be written']);
      expect(JSON.stringify(body)).not.toContain('db-7');
      // The operator's log keeps the full sentence.
      expect(serve.stderr()).toContain('db-7.corp.internal');
    } finally {
      await chat.close();
    }
  });
});
