import { afterEach, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { HttpAgent, type AgentSubscriber, type BaseEvent, type Message, type ResumeEntry } from '@ag-ui/client';
import { copyExample } from '../helpers/agent-fixture.js';
import type { ChatReply } from '../helpers/chat-server.js';
import { checkRunSequence, validateEach } from '../helpers/agui-events.js';
import { ServeScope, startServe } from '../helpers/serve-process.js';

const scope = new ServeScope();
afterEach(() => scope.stop());

/** `auggy serve` on a copy of the demo agent, its model pointed at a loopback Chat Completions server. */
function serveWith(replies: ChatReply[] | ((index: number) => ChatReply)) {
  return scope.start(copyExample('demo'), typeof replies === 'function' ? (_request, index) => replies(index) : replies);
}

interface RunRecord {
  events: BaseEvent[];
  finished: Parameters<NonNullable<AgentSubscriber['onRunFinishedEvent']>>[0][];
  errors: BaseEvent[];
  failure?: Error;
}

/** One HttpAgent run: the user's message added, every event the client saw kept. */
async function clientRun(agent: HttpAgent, text: string): Promise<RunRecord> {
  const record: RunRecord = { events: [], finished: [], errors: [] };
  agent.addMessage({ id: randomUUID(), role: 'user', content: text } satisfies Message);
  try {
    await agent.runAgent(
      { runId: `run-${randomUUID()}` },
      {
        onEvent: ({ event }) => {
          record.events.push(event);
        },
        onRunFinishedEvent: (params) => {
          record.finished.push(params);
        },
        onRunErrorEvent: ({ event }) => {
          record.errors.push(event);
        },
      },
    );
  } catch (error) {
    record.failure = error instanceof Error ? error : new Error(String(error));
  }
  return record;
}

/** One HttpAgent run that answers the thread's open interrupts. */
async function clientResume(agent: HttpAgent, resume: ResumeEntry[]): Promise<RunRecord> {
  const record: RunRecord = { events: [], finished: [], errors: [] };
  try {
    await agent.runAgent(
      { runId: `run-${randomUUID()}`, resume },
      { onEvent: ({ event }) => void record.events.push(event), onRunFinishedEvent: (params) => void record.finished.push(params) },
    );
  } catch (error) {
    record.failure = error instanceof Error ? error : new Error(String(error));
  }
  return record;
}

function checkRun(record: RunRecord, agent: HttpAgent): void {
  const events = validateEach(record.events);
  const started = events[0];
  expect(started?.type).toBe('RUN_STARTED');
  checkRunSequence(events, { threadId: agent.threadId, runId: started?.type === 'RUN_STARTED' ? started.runId : '' });
}

describe('auggy serve with the @ag-ui/client HttpAgent', () => {
  it('a plain run: the answer arrives as one text message and the run finishes completed', async () => {
    const { serve, chat } = await serveWith([{ text: 'Hello from the loopback model.' }]);
    const agent = new HttpAgent({ url: `${serve.url}/agent/run` });
    const record = await clientRun(agent, 'hello there');
    expect(record.failure).toBeUndefined();
    checkRun(record, agent);
    expect(record.finished).toHaveLength(1);
    expect(record.finished[0]).toMatchObject({ outcome: 'success', result: { status: 'completed' } });
    expect(agent.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'Hello from the loopback model.' });
    expect(chat.requests).toHaveLength(1);
    expect(chat.requests[0].body.messages.at(-1)).toEqual({ role: 'user', content: 'hello there' });
  });

  it('request_input: onRunFinishedEvent sees an interrupt (result input-required and the prompt kept), shown as the reply', async () => {
    const prompt = 'Which production service should I deploy: api-west or api-east?';
    const { serve, chat } = await serveWith([{ toolCalls: [{ name: 'request_input', args: { prompt, reason: 'two targets' } }] }]);
    const agent = new HttpAgent({ url: `${serve.url}/agent/run` });
    const record = await clientRun(agent, 'deploy the api');
    expect(record.failure).toBeUndefined();
    checkRun(record, agent);
    expect(record.finished).toHaveLength(1);
    const [finished] = record.finished;
    // A run that stopped to ask is not a success (AG-UI 1.0): the client reads an interrupt.
    expect(finished.outcome).toBe('interrupt');
    expect(finished.outcome === 'interrupt' ? finished.interrupts : undefined).toEqual([
      expect.objectContaining({ reason: 'input_required', message: prompt }),
    ]);
    expect(finished.event).toMatchObject({ result: { status: 'input-required', message: prompt } });
    const types = record.events.map((e) => e.type);
    expect(types).toEqual(expect.arrayContaining(['TOOL_CALL_START', 'TOOL_CALL_ARGS', 'TOOL_CALL_END', 'TOOL_CALL_RESULT']));
    expect(agent.messages.at(-1)).toMatchObject({ role: 'assistant', content: prompt });
    expect(JSON.stringify(agent.messages)).not.toContain('"content":"two targets"');
    // The question ends the turn: no second inference.
    expect(chat.requests).toHaveLength(1);
  });

  it('the answer on the same thread (a resume) continues the conversation', async () => {
    const prompt = 'Which region?';
    const { serve, chat } = await serveWith([{ toolCalls: [{ name: 'request_input', args: { prompt } }] }, { text: 'Deploying to eu-west.' }]);
    const agent = new HttpAgent({ url: `${serve.url}/agent/run` });
    const first = await clientRun(agent, 'deploy');
    checkRun(first, agent);
    const second = await clientResume(
      agent,
      agent.pendingInterrupts.map((interrupt) => ({ interruptId: interrupt.id, status: 'resolved' as const, payload: 'eu-west' })),
    );
    expect(second.failure).toBeUndefined();
    checkRun(second, agent);
    expect(second.finished[0]).toMatchObject({ result: { status: 'completed' } });
    expect(chat.requests).toHaveLength(2);
    const messages = chat.requests[1].body.messages;
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'user']);
    expect(messages[1]).toEqual({ role: 'user', content: 'deploy' });
    expect(messages[2].tool_calls?.[0].function.name).toBe('request_input');
    expect(messages[3]).toMatchObject({ role: 'tool', content: prompt });
    expect(messages[4]).toMatchObject({ role: 'assistant', content: prompt });
    expect(messages[5]).toEqual({ role: 'user', content: 'eu-west' });
  });

  it('a provider that keeps failing: one RUN_ERROR, no RUN_FINISHED', async () => {
    // The kernel retries twice; every attempt fails.
    const { serve, chat } = await serveWith(() => ({ status: 500 }));
    const agent = new HttpAgent({ url: `${serve.url}/agent/run` });
    const record = await clientRun(agent, 'hello');
    checkRun(record, agent);
    expect(record.errors).toHaveLength(1);
    expect(record.finished).toHaveLength(0);
    expect(record.events.filter((e) => e.type === 'RUN_FINISHED')).toHaveLength(0);
    expect(record.events.at(-1)).toMatchObject({ type: 'RUN_ERROR', code: 'provider_error' });
    expect(chat.requests).toHaveLength(3);
    // The operator's log line follows the stream's end.
    expect(await serve.waitForStderr(/run \S+ failed: /)).toMatch(/HTTP 500|server/i);
    expect(serve.stderr()).not.toMatch(/\n\s+at /);
  });

  it('refused credentials (HTTP 401): one RUN_ERROR saying so, no retry', async () => {
    const { serve, chat } = await serveWith(() => ({ status: 401 }));
    const agent = new HttpAgent({ url: `${serve.url}/agent/run` });
    const record = await clientRun(agent, 'hello');
    checkRun(record, agent);
    expect(record.errors).toHaveLength(1);
    expect(record.errors[0]).toMatchObject({ type: 'RUN_ERROR', code: 'provider_auth', message: expect.stringMatching(/refused the credentials/) });
    expect(JSON.stringify(record.errors[0])).not.toContain('127.0.0.1');
    expect(await serve.waitForStderr(/run \S+ failed: /)).toMatch(/127\.0\.0\.1:\d+ refused the credentials .*HTTP 401/);
    expect(record.finished).toHaveLength(0);
    expect(chat.requests).toHaveLength(1);
  });

  it('augment events (workflow transitions) arrive as CUSTOM events, on the scripted support example', async () => {
    const serve = scope.adopt(await startServe(copyExample('support')));
    const agent = new HttpAgent({ url: `${serve.url}/agent/run` });
    const custom: BaseEvent[] = [];
    agent.subscribe({ onCustomEvent: ({ event }) => void custom.push(event) });
    const record = await clientRun(agent, 'I need my balance, my ID is ACC-12345');
    expect(record.failure).toBeUndefined();
    checkRun(record, agent);
    expect(custom.length).toBeGreaterThan(0);
    expect(custom.map((event) => event.name)).toEqual(expect.arrayContaining([expect.stringMatching(/transition/)]));
    expect(record.finished[0]).toMatchObject({ outcome: 'success' });
  });
});
