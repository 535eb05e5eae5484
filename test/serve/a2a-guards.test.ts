import { afterEach, describe, expect, it } from 'vitest';
import { AgentCard, TaskState } from '@a2a-js/sdk';
import { makeAgentFolder } from '../helpers/agent-fixture.js';
import { a2aClient, demoCopy, sendTask, stateOf, userMessage } from '../helpers/a2a-client.js';
import { startChatServer, type ChatServer } from '../helpers/chat-server.js';
import { startServe, type ServeProcess } from '../helpers/serve-process.js';

let serve: ServeProcess | undefined;
let chat: ChatServer | undefined;

afterEach(async () => {
  serve?.signal('SIGKILL');
  await serve?.exited;
  await chat?.close();
  serve = undefined;
  chat = undefined;
});

describe('A2A behind the server token, and cancel of a running task', () => {
  it('the start says where the Console, AG-UI and A2A are; --no-a2a serves no card and says nothing of A2A', async () => {
    serve = await startServe(demoCopy(), []);
    const line = await serve.waitForStderr(/the Console is at/);
    expect(line).toContain(
      `the Console is at ${serve.url}/; AG-UI clients POST ${serve.url}/agent/run; other agents read ${serve.url}/.well-known/agent-card.json (A2A)`,
    );
    serve.signal('SIGKILL');
    await serve.exited;

    serve = await startServe(demoCopy(), ['--no-a2a']);
    const without = await serve.waitForStderr(/the Console is at/);
    expect(without).not.toContain('A2A');
    expect((await fetch(`${serve.url}/.well-known/agent-card.json`)).status).toBe(404);
    expect((await fetch(`${serve.url}/a2a`, { method: 'POST', body: '{}' })).status).toBe(404);
  });

  it('names the bearer scheme on the card, refuses a caller without the token, serves one with it', async () => {
    serve = await startServe(demoCopy(), [], { AUGGY_TOKEN: 'sesame' });
    const card = AgentCard.fromJSON(await (await fetch(`${serve.url}/.well-known/agent-card.json`)).json());
    expect(card.securitySchemes.bearer?.scheme).toMatchObject({ $case: 'httpAuthSecurityScheme', value: { scheme: 'Bearer' } });
    expect(card.securityRequirements).toEqual([{ schemes: { bearer: { list: [] } } }]);

    const refused = await fetch(`${serve.url}/a2a`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'x' } }),
    });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: { message: 'this route needs an Authorization: Bearer <token> header' } });
    await expect((await a2aClient(serve.url)).sendMessage(userMessage('hello'))).rejects.toThrow();

    const task = await sendTask(await a2aClient(serve.url, 'sesame'), userMessage('hello'));
    expect(stateOf(task)).toBe('TASK_STATE_COMPLETED');
  });

  it('a task canceled mid-turn stops its model call and ends canceled on the stream', async () => {
    chat = await startChatServer([{ text: 'Working on it', hold: true }]);
    serve = await startServe(makeAgentFolder(), ['--model', 'openai-compatible:test', '--base-url', chat.url]);
    const client = await a2aClient(serve.url);
    const stream = client.sendMessageStream(userMessage('take your time'));
    const first = await stream.next();
    const task = first.value?.payload?.$case === 'task' ? first.value.payload.value : undefined;
    if (!task) throw new Error('the stream did not begin with the task');
    await chat.held();
    const canceled = await client.cancelTask({ tenant: '', id: task.id, metadata: undefined });
    expect(stateOf(canceled)).toBe('TASK_STATE_CANCELED');
    const states: TaskState[] = [];
    for await (const event of stream)
      if (event.payload?.$case === 'statusUpdate') states.push(event.payload.value.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED);
    expect(states.at(-1)).toBe(TaskState.TASK_STATE_CANCELED);
    expect(stateOf(await client.getTask({ tenant: '', id: task.id, historyLength: undefined }))).toBe('TASK_STATE_CANCELED');
  });
});
