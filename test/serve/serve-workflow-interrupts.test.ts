import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { HttpAgent } from '@ag-ui/client';
import { HttpAgent as LegacyHttpAgent } from '@ag-ui/client-legacy';
import type { BaseEvent } from '@ag-ui/core';
import { ServeScope, type ServeProcess } from '../helpers/serve-process.js';
import type { ChatReply, ChatServer, ReceivedRequest } from '../helpers/chat-server.js';
import { checkRun, clientRun, interruptsOf } from '../helpers/interrupt-agent.js';
import { packText, workflowFolder } from '../augments/workflow/harness.js';

// A workflow whose model moves into a person's state (two fields), then answers in the state it lands in.
const PACK = packText({
  entry: 'intake',
  states: {
    intake: { prompt_task: 'intake', on_event: { NeedDetails: 'details' } },
    details: {
      ask: {
        prompt: 'Where should it go?',
        fields: [
          { name: 'env', question: 'Which environment?', type: 'choice', options: ['staging', 'production'] },
          { name: 'replicas', question: 'How many replicas?', type: 'integer' },
        ],
      },
      on_event: { Answered: 'plan', NoAnswer: 'fallback' },
    },
    plan: { prompt_task: 'plan', control: 'agent', on_event: { Done: 'done' } },
    fallback: { prompt_task: 'fallback', control: 'agent', on_event: { Done: 'done' } },
    done: { prompt_task: 'done', terminal: true },
  },
  prompts: { plan: { system_template: 'Deploy {{answers.replicas}} to {{answers.env}}.' }, fallback: { system_template: 'Nobody chose an environment.' } },
});

function systemOf(request: ReceivedRequest): string {
  return String(request.body.messages.find((m) => m.role === 'system')?.content ?? '');
}

function stateOf(request: ReceivedRequest): string | undefined {
  return /Current state: (\w+)/.exec(systemOf(request))?.[1];
}

function deployModel(request: ReceivedRequest): ChatReply {
  switch (stateOf(request)) {
    case 'intake':
      return { text: 'I need a detail from you.', toolCalls: [{ name: 'workflow__transition', args: { event: 'NeedDetails' } }] };
    case 'plan':
      return { text: /Deploy (\S+ to \w+)/.exec(systemOf(request))?.[0] ?? 'no plan' };
    case 'fallback':
      return { text: 'Nobody answered, so I will hold the deploy.' };
    default:
      return { text: `unexpected state ${stateOf(request) ?? '(none)'}` };
  }
}

const scope = new ServeScope();
let serve: ServeProcess;
let chat: ChatServer;

beforeAll(async () => {
  ({ serve, chat } = await scope.start(workflowFolder(PACK), deployModel));
}, 60_000);
afterAll(() => scope.stop());

function transitionsOf(events: readonly BaseEvent[]): unknown[] {
  return events.flatMap((event) =>
    event.type === 'CUSTOM' && 'name' in event && event.name === 'workflow.transition' && 'value' in event ? [event.value] : [],
  );
}

describe('a workflow ask state under serve, for a 1.0 client', () => {
  it('is an input_required interrupt of its fields; a refused field is asked again alone; the answer fires Answered and the turn carries on', async () => {
    const agent = new HttpAgent({ url: `${serve.url}/agent/run` });
    const first = await clientRun(agent, { text: 'deploy the api' });
    expect(first.failure).toBeUndefined();
    checkRun(first, agent.threadId);
    const [asked, ...more] = interruptsOf(first);
    expect(more).toHaveLength(0);
    expect(asked).toMatchObject({ reason: 'input_required', message: 'Where should it go?' });
    expect(asked.toolCallId).toBeUndefined();
    expect(asked.responseSchema).toEqual({
      type: 'object',
      properties: {
        env: { type: 'string', enum: ['staging', 'production'], title: 'Which environment?', description: 'Which environment?' },
        replicas: { type: 'integer', title: 'How many replicas?', description: 'How many replicas?' },
      },
      required: ['env', 'replicas'],
      additionalProperties: false,
    });
    // The questions are said in the run that asks them, so a plain chat shows them too.
    expect(
      agent.messages
        .filter((m) => m.role === 'assistant')
        .map((m) => String(m.content))
        .join('\n'),
    ).toContain('Which environment?');
    // Nobody answered it "away": the workflow waits in the person's state.
    expect(transitionsOf(first.events)).toEqual([expect.objectContaining({ from: 'intake', to: 'details' })]);
    const requestsBefore = chat.requests.length;

    const refused = await clientRun(agent, { resume: [{ interruptId: asked.id, status: 'resolved', payload: { env: 'production', replicas: 'three' } }] });
    expect(refused.failure).toBeUndefined();
    checkRun(refused, agent.threadId);
    const [again] = interruptsOf(refused);
    expect(again.id).not.toBe(asked.id);
    expect(Object.keys((again.responseSchema as { properties: object }).properties)).toEqual(['replicas']);
    expect(again.message).toContain('"three" is not a whole number; type digits, such as 3');
    expect(transitionsOf(refused.events)).toEqual([]);
    expect(chat.requests.length).toBe(requestsBefore);

    const done = await clientRun(agent, { resume: [{ interruptId: again.id, status: 'resolved', payload: { replicas: 3 } }] });
    expect(done.failure).toBeUndefined();
    checkRun(done, agent.threadId);
    expect(done.finished[0]).toMatchObject({ outcome: 'success', result: { status: 'completed' } });
    expect(transitionsOf(done.events)).toEqual([expect.objectContaining({ from: 'details', to: 'plan', event: 'Answered', initiator: 'person' })]);
    expect(stateOf(chat.requests.at(-1) as ReceivedRequest)).toBe('plan');
    expect(agent.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'Deploy 3 to production' });
  });

  it('cancelled is NoAnswer (declined)', async () => {
    const agent = new HttpAgent({ url: `${serve.url}/agent/run` });
    const [asked] = interruptsOf(await clientRun(agent, { text: 'deploy the api' }));
    const done = await clientRun(agent, { resume: [{ interruptId: asked.id, status: 'cancelled' }] });
    expect(done.failure).toBeUndefined();
    checkRun(done, agent.threadId);
    expect(transitionsOf(done.events)).toEqual([
      expect.objectContaining({
        from: 'details',
        to: 'fallback',
        event: 'NoAnswer',
        asked: expect.objectContaining({ status: 'no-answer', reason: 'declined' }),
      }),
    ]);
    expect(agent.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'Nobody answered, so I will hold the deploy.' });
  });
});

describe('a workflow ask state under serve, for a client from before interrupts', () => {
  it('takes NoAnswer (away) at once, as before', async () => {
    const agent = new LegacyHttpAgent({ url: `${serve.url}/agent/run` });
    agent.addMessage({ id: randomUUID(), role: 'user', content: 'deploy the api' });
    const events: BaseEvent[] = [];
    await agent.runAgent({ runId: `run-${randomUUID()}` }, { onEvent: ({ event }) => void events.push(event as unknown as BaseEvent) });
    const finished = events.at(-1) as unknown as Record<string, unknown>;
    expect(finished).toMatchObject({ type: 'RUN_FINISHED', result: { status: 'completed' } });
    expect(finished.outcome).toBeUndefined();
    expect(transitionsOf(events).at(-1)).toMatchObject({
      from: 'details',
      to: 'fallback',
      event: 'NoAnswer',
      asked: expect.objectContaining({ reason: 'away' }),
    });
  });
});
