import { cpSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Part, type SendMessageRequest, type Task, TaskState } from '@a2a-js/sdk';
import { type Client, ClientFactory, ClientFactoryOptions, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import { dataPart, textPart } from '../../src/augments/a2a/a2a-parts.js';
import { request } from '../../src/augments/a2a/remote-parts.js';
import { makeAgentFolder, REPO_ROOT } from './agent-fixture.js';

/** A copy of examples/demo in a temp folder, so its sessions stay out of the repository. */
export function demoCopy(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'auggy-a2a-')), 'demo');
  cpSync(join(REPO_ROOT, 'examples', 'demo'), dir, { recursive: true });
  return dir;
}

export function textOf(part: Part): string | undefined {
  return part.content?.$case === 'text' ? part.content.value : undefined;
}

export function dataOf(part: Part): unknown {
  return part.content?.$case === 'data' ? part.content.value : undefined;
}

/** A caller's message: text, data parts, and the task and context it continues. */
export function userMessage(text: string | undefined, on: { taskId?: string; contextId?: string; data?: unknown[] } = {}): SendMessageRequest {
  const parts = [...(text === undefined ? [] : [textPart(text)]), ...(on.data ?? []).map((value) => dataPart(value))];
  return request(parts, on);
}

/** The SDK's client for the agent `auggy serve` listens as at `url`, found through its card. */
export function a2aClient(url: string, token?: string): Promise<Client> {
  const fetchImpl: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    if (token !== undefined) headers.set('authorization', `Bearer ${token}`);
    return fetch(input, { ...init, headers });
  };
  const options = ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { transports: [new JsonRpcTransportFactory({ fetchImpl })] });
  return new ClientFactory(options).createFromUrl(url);
}

export async function sendTask(client: Client, request: SendMessageRequest): Promise<Task> {
  const result = await client.sendMessage(request);
  if (!('status' in result)) throw new Error(`expected a task, got a message: ${JSON.stringify(result)}`);
  return result;
}

export function stateOf(task: Task): string {
  return TaskState[task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED];
}

/** The text parts of the task's status message. */
export function statusText(task: Task): string {
  return (task.status?.message?.parts ?? []).flatMap((part) => textOf(part) ?? []).join('\n');
}

/** Every reply the task's artifacts hold, in order. */
export function replyText(task: Task): string {
  return task.artifacts.flatMap((artifact) => artifact.parts.flatMap((part) => textOf(part) ?? [])).join('\n');
}

/** An agent whose scripted model hands "ship" to the agent at `url` through the a2a augment's a2a_demo tool, as `message`. */
export function callerFolder(url: string, message = 'deploy the api'): string {
  return makeAgentFolder({
    augments: ['turnControl', 'a2a'],
    engine: 'engine:\n  provider: scripted\n  model: caller\n  script: ./script.yaml\n',
    files: {
      'augments/a2a/augment.yaml': `type: a2a\nconfig:\n  agents:\n    - name: demo\n      url: ${url}\n`,
      'script.yaml': [
        'rules:',
        '  - match: "ship"',
        '    steps:',
        '      - toolCalls:',
        '          - name: a2a_demo',
        `            args: { message: ${JSON.stringify(message)} }`,
        '      - text: "The demo agent has answered."',
        '  - match: ".*"',
        '    steps:',
        '      - text: "Say ship."',
        '',
      ].join('\n'),
    },
  });
}

/** The results of the tool calls in an agent folder's sessions, in the order they were logged. */
export function toolResultsIn(dir: string): string[] {
  type Logged = { kind?: string; message?: { role?: string; content?: { type?: string; output?: { value?: unknown } }[] } };
  const root = join(dir, '.auggy', 'sessions');
  return readdirSync(root).flatMap((id) =>
    readFileSync(join(root, id, 'events.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Logged)
      .flatMap((line) => (line.kind === 'message' && line.message?.role === 'tool' ? (line.message.content ?? []) : []))
      .flatMap((part) => (part.type === 'tool-result' ? [String(part.output?.value)] : [])),
  );
}
