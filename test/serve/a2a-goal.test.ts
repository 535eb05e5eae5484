import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeAgentFolder } from '../helpers/agent-fixture.js';
import { a2aClient, replyText, sendTask, stateOf, statusText, userMessage } from '../helpers/a2a-client.js';
import { startChatServer, type ChatServer } from '../helpers/chat-server.js';
import { startServe, type ServeProcess } from '../helpers/serve-process.js';
import { scriptedGoalFolder } from '../augments/goal/scripted-goal.js';
import { postRun, runInput } from '../helpers/agui-events.js';

let serve: ServeProcess | undefined;
let chat: ChatServer | undefined;

afterEach(async () => {
  serve?.signal('SIGKILL');
  await serve?.exited;
  await chat?.close();
  serve = undefined;
  chat = undefined;
});

function goalOf(dir: string, contextId: string): { status: string; turns: number } {
  return JSON.parse(readFileSync(join(dir, '.auggy', 'sessions', contextId, 'goal.json'), 'utf8')) as { status: string; turns: number };
}

describe('A2A tasks hold the floor and the thread as AG-UI runs do', () => {
  it('/goal sent as an A2A message runs the goal turn by turn to achieved in one task', async () => {
    const dir = scriptedGoalFolder();
    serve = await startServe(dir);
    const task = await sendTask(await a2aClient(serve.url), userMessage('/goal do three steps'));
    expect(stateOf(task)).toBe('TASK_STATE_COMPLETED');
    expect(statusText(task)).toBe('goal achieved: All three steps are done.');
    const said = replyText(task);
    expect(said).toContain('Did step one.');
    expect(said).toContain('Did step two.');
    expect(said).toContain('Did step three.');
    expect(goalOf(dir, task.contextId)).toMatchObject({ status: 'achieved', turns: 3 });
  });

  it("a goal's budget running out ends the task failed with the goal's sentence", async () => {
    const dir = scriptedGoalFolder('  maxTurns: 2\n');
    serve = await startServe(dir);
    const task = await sendTask(await a2aClient(serve.url), userMessage('/goal do three steps'));
    expect(stateOf(task)).toBe('TASK_STATE_FAILED');
    expect(statusText(task)).toBe('goal budget exhausted: 2 turns of maxTurns 2 used; left undone: Step three remains.');
    expect(goalOf(dir, task.contextId)).toMatchObject({ status: 'budget-exhausted', turns: 2 });
  });

  it('a command that starts no turn answers with its lines', async () => {
    serve = await startServe(scriptedGoalFolder());
    const task = await sendTask(await a2aClient(serve.url), userMessage('/goal'));
    expect(stateOf(task)).toBe('TASK_STATE_COMPLETED');
    expect(statusText(task)).toBe('No goal is set. /goal <condition> sets one and starts working on it.');
  });

  it('GET /agent/thread says running while an A2A task runs on the thread, and AG-UI waits its turn', async () => {
    chat = await startChatServer([{ text: 'Working on it', hold: true }, { text: 'Next.' }]);
    serve = await startServe(makeAgentFolder(), ['--model', 'openai-compatible:test', '--base-url', chat.url]);
    const client = await a2aClient(serve.url);
    const stream = client.sendMessageStream(userMessage('take your time'));
    const first = await stream.next();
    const task = first.value?.payload?.$case === 'task' ? first.value.payload.value : undefined;
    if (!task) throw new Error('the stream did not begin with the task');
    await chat.held();
    const during = (await (await fetch(`${serve.url}/agent/thread?threadId=${task.contextId}`)).json()) as { running: boolean };
    expect(during.running).toBe(true);
    const refused = await postRun(serve.url, runInput(task.contextId, 'hi'));
    expect(refused.status).toBe(409);
    chat.release();
    for await (const _event of stream) void _event;
    const after = (await (await fetch(`${serve.url}/agent/thread?threadId=${task.contextId}`)).json()) as { running: boolean };
    expect(after.running).toBe(false);
  });
});
