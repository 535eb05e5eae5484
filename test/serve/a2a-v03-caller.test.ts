import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message, Task } from '@a2a-js/sdk-v03';
import { type Client, ClientFactory } from '@a2a-js/sdk-v03/client';
import { demoCopy } from '../helpers/a2a-client.js';
import { startServe, type ServeProcess } from '../helpers/serve-process.js';

let serve: ServeProcess;
let client: Client;

beforeAll(async () => {
  serve = await startServe(demoCopy());
  client = await new ClientFactory().createFromUrl(serve.url);
}, 60_000);
afterAll(async () => {
  serve.signal('SIGKILL');
  await serve.exited;
});

function message(text: string, on: { taskId?: string; contextId?: string } = {}): { message: Message } {
  return { message: { kind: 'message', messageId: randomUUID(), role: 'user', parts: [{ kind: 'text', text }], ...on } };
}

async function sendTask(text: string, on?: { taskId?: string; contextId?: string }): Promise<Task> {
  const result = await client.sendMessage(message(text, on));
  if (result.kind !== 'task') throw new Error(`expected a task, got ${JSON.stringify(result)}`);
  return result;
}

function statusText(task: Task): string {
  return (task.status.message?.parts ?? []).flatMap((part) => (part.kind === 'text' ? [part.text] : [])).join('\n');
}

describe('a caller on A2A v0.3 (the SDK 0.3 client), through the SDK compat layer', () => {
  it('reads the card, is asked the question, and completes the task with its answer', async () => {
    const asked = await sendTask('deploy the api');
    expect(asked.status.state).toBe('input-required');
    expect(statusText(asked)).toBe('Which production service should I deploy: api-west or api-east?');
    const done = await sendTask('api-west', { taskId: asked.id, contextId: asked.contextId });
    expect(done.id).toBe(asked.id);
    expect(done.status.state).toBe('completed');
    const again = await client.getTask({ id: asked.id });
    expect(again.status.state).toBe('completed');
    expect(JSON.stringify(again.artifacts)).toContain('Done: the new version is live.');
  });

  it('streams a reply in v0.3 events, ending completed', async () => {
    const kinds: string[] = [];
    for await (const event of client.sendMessageStream(message('hello'))) {
      kinds.push(event.kind === 'status-update' ? `status:${event.status.state}` : event.kind);
    }
    expect(kinds[0]).toBe('task');
    expect(kinds).toContain('artifact-update');
    expect(kinds.at(-1)).toBe('status:completed');
  });
});
