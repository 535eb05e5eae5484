import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AgentCard, TaskState } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { a2aClient, dataOf, demoCopy, replyText, sendTask, stateOf, statusText, userMessage } from '../helpers/a2a-client.js';
import { startServe, type ServeProcess } from '../helpers/serve-process.js';

let dir: string;
let serve: ServeProcess;
let client: Client;

beforeAll(async () => {
  dir = demoCopy();
  serve = await startServe(dir);
  client = await a2aClient(serve.url);
}, 60_000);
afterAll(async () => {
  serve.signal('SIGKILL');
  await serve.exited;
});

describe('auggy serve speaks A2A to the SDK client', () => {
  it('serves a v1.0 Agent Card with the folder skills and the JSON-RPC endpoint', async () => {
    const response = await fetch(`${serve.url}/.well-known/agent-card.json`);
    expect(response.status).toBe(200);
    const wire = (await response.json()) as Record<string, unknown>;
    const card = AgentCard.fromJSON(wire);
    expect(card).toMatchObject({
      name: 'Demo',
      description: expect.stringContaining('deploy services'),
      defaultInputModes: ['text', 'image/png', 'image/jpeg', 'image/gif', 'image/webp'],
      defaultOutputModes: ['text'],
    });
    expect(card.capabilities?.streaming).toBe(true);
    // One endpoint, for v1.0 callers and, through the SDK's compat layer, v0.3 ones.
    expect(card.supportedInterfaces).toEqual([
      expect.objectContaining({ url: `${serve.url}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }),
      expect.objectContaining({ url: `${serve.url}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '0.3' }),
    ]);
    expect(card.skills.map((skill) => skill.id)).toEqual(expect.arrayContaining(['turnControl', 'questions', 'board', 'userAsk']));
    // No token on this server: no security scheme to name.
    expect(card.securitySchemes).toEqual({});
    expect((await client.getAgentCard()).name).toBe('Demo');
  });

  it('a message completes, its reply in one artifact, and the task is kept in the thread', async () => {
    const task = await sendTask(client, userMessage('hello'));
    expect(stateOf(task)).toBe('TASK_STATE_COMPLETED');
    expect(task.artifacts).toHaveLength(1);
    expect(replyText(task)).toContain("Hello! I'm the demo agent.");
    // contextId is the auggy session: the task is a state file beside its events.
    expect(existsSync(join(dir, '.auggy', 'sessions', task.contextId, `a2a-task-${task.id}.json`))).toBe(true);
    const again = await client.getTask({ tenant: '', id: task.id, historyLength: undefined });
    expect(stateOf(again)).toBe('TASK_STATE_COMPLETED');
    expect(replyText(again)).toBe(replyText(task));
  });

  it('a question ends the task input-required with its text, and the next message on the task completes it', async () => {
    const asked = await sendTask(client, userMessage('deploy the api'));
    expect(stateOf(asked)).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(statusText(asked)).toBe('Which production service should I deploy: api-west or api-east?');
    // The model's reason is never the caller's to read.
    expect(JSON.stringify(asked.status)).not.toContain('neither is the default');
    const done = await sendTask(client, userMessage('api-west', { taskId: asked.id, contextId: asked.contextId }));
    expect(done.id).toBe(asked.id);
    expect(stateOf(done)).toBe('TASK_STATE_COMPLETED');
    expect(replyText(done)).toContain('Done: the new version is live.');
    const events = readFileSync(join(dir, '.auggy', 'sessions', asked.contextId, 'events.jsonl'), 'utf8');
    expect(events).toContain('api-west');
    expect(existsSync(join(dir, '.auggy', 'sessions', asked.contextId, 'interrupts.json'))).toBe(false);
  });

  it('a questionnaire asks through a data part with the JSON Schema; refused fields come back with reasons', async () => {
    const asked = await sendTask(client, userMessage('plan a release'));
    expect(stateOf(asked)).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(statusText(asked)).toContain('Planning the release.');
    const parts = asked.status?.message?.parts ?? [];
    const schema = parts.map(dataOf).find((value) => value !== undefined) as { properties: Record<string, unknown>; required?: string[] };
    expect(Object.keys(schema.properties)).toEqual(['environment', 'replicas', 'regions']);
    expect(schema.properties.environment).toMatchObject({ enum: ['staging', 'production'] });

    const refused = await sendTask(
      client,
      userMessage(undefined, { taskId: asked.id, contextId: asked.contextId, data: [{ environment: 'moon', replicas: 3, regions: ['eu'] }] }),
    );
    expect(stateOf(refused)).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(statusText(refused)).toContain('Answer again: Which environment?');

    const done = await sendTask(
      client,
      userMessage(undefined, { taskId: asked.id, contextId: asked.contextId, data: [{ environment: 'staging', regions: ['eu', 'us'] }] }),
    );
    expect(stateOf(done)).toBe('TASK_STATE_COMPLETED');
    expect(replyText(done)).toMatch(/Thanks: the release goes to staging with \d+ replicas in eu, us\./);
    const events = readFileSync(join(dir, '.auggy', 'sessions', asked.contextId, 'events.jsonl'), 'utf8');
    expect(events).toContain('\\"environment\\":\\"staging\\"');
  });

  it('streams the task, tool calls as working messages, reply chunks appended to one artifact, then the final state', async () => {
    const kinds: string[] = [];
    const working: string[] = [];
    let chunks = 0;
    let finalState: string | undefined;
    for await (const event of client.sendMessageStream(userMessage('hello'))) {
      const payload = event.payload;
      if (!payload) continue;
      if (payload.$case === 'task') kinds.push('task');
      if (payload.$case === 'statusUpdate') {
        const state = payload.value.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED;
        kinds.push(`status:${TaskState[state]}`);
        const text = payload.value.status?.message?.parts.map((part) => (part.content?.$case === 'text' ? part.content.value : '')).join('');
        if (state === TaskState.TASK_STATE_WORKING && text) working.push(text);
        finalState = TaskState[state];
      }
      if (payload.$case === 'artifactUpdate') {
        if (kinds.at(-1) !== 'artifact') kinds.push('artifact');
        chunks++;
        expect(payload.value.artifact?.artifactId).toMatch(/^reply-/);
      }
    }
    expect(kinds[0]).toBe('task');
    expect(kinds).toContain('status:TASK_STATE_WORKING');
    expect(kinds.indexOf('artifact')).toBeGreaterThan(kinds.indexOf('status:TASK_STATE_WORKING'));
    expect(kinds.at(-1)).toBe('status:TASK_STATE_COMPLETED');
    expect(finalState).toBe('TASK_STATE_COMPLETED');
    expect(working).toContain('calling board_write');
    expect(chunks).toBeGreaterThan(2);
  });

  it('cancels a task that waits on the caller, and the thread takes a new message after it', async () => {
    const asked = await sendTask(client, userMessage('deploy the api'));
    const blocked = await sendTask(client, userMessage('hello', { contextId: asked.contextId }));
    expect(stateOf(blocked)).toBe('TASK_STATE_FAILED');
    expect(statusText(blocked)).toBe(
      `context ${asked.contextId} waits for the answer to task ${asked.id}; send the answer with that taskId, or cancel that task first`,
    );
    const canceled = await client.cancelTask({ tenant: '', id: asked.id, metadata: undefined });
    expect(stateOf(canceled)).toBe('TASK_STATE_CANCELED');
    const next = await sendTask(client, userMessage('hello', { contextId: asked.contextId }));
    expect(stateOf(next)).toBe('TASK_STATE_COMPLETED');
    const listed = await client.listTasks({
      tenant: '',
      contextId: asked.contextId,
      status: TaskState.TASK_STATE_UNSPECIFIED,
      pageToken: '',
      statusTimestampAfter: undefined,
    });
    expect(listed.tasks.map((task) => stateOf(task)).sort()).toEqual(['TASK_STATE_CANCELED', 'TASK_STATE_COMPLETED', 'TASK_STATE_FAILED']);
  });

  it('refuses what is not JSON-RPC in one sentence with A2A error codes', async () => {
    const post = (body: string, type = 'application/json') =>
      fetch(`${serve.url}/a2a`, { method: 'POST', headers: { 'content-type': type, 'a2a-version': '1.0' }, body });
    const notJson = await post('{"jsonrpc":');
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: expect.stringContaining('the request body is not JSON') },
    });
    const text = await post('hi', 'text/plain');
    expect(text.status).toBe(415);
    expect(await text.json()).toMatchObject({ error: { code: -32005 } });
    const unknown = await post(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'GetTask', params: { id: 'no-such-task' } }));
    expect(await unknown.json()).toMatchObject({ id: 7, error: { code: -32001 } });
  });
});
