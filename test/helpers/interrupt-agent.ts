import { randomUUID } from 'node:crypto';
import type { AgentSubscriber, BaseEvent, HttpAgent, Interrupt, Message, ResumeEntry } from '@ag-ui/client';
import { expect } from 'vitest';
import type { ChatReply, ReceivedRequest } from './chat-server.js';
import { checkRunSequence, validateEach } from './agui-events.js';
import { lastUserText } from './mcp-agent.js';

/** The three-field questionnaire the model asks with ask_user when told "plan a deploy". */
export const DEPLOY_FORM = {
  prompt: 'A few details for the deploy.',
  fields: [
    { name: 'service', question: 'Which service?', type: 'text' },
    { name: 'replicas', question: 'How many replicas?', type: 'integer' },
    { name: 'env', question: 'Which environment?', type: 'choice', options: ['staging', 'production'], default: 'staging' },
  ],
};

/**
 * A model for interrupt tests: `ask <prompt>` calls request_input, `plan a deploy` asks the
 * deploy form, `call <tool> <json>` calls a tool, `both` asks the form and calls get-sum in one
 * batch, `form and ask <prompt>` asks the form and calls request_input in one batch; after tool
 * results it says what they were.
 */
export function interruptModel(request: ReceivedRequest): ChatReply {
  const last = request.body.messages.at(-1);
  if (last?.role === 'tool') {
    const results = request.body.messages.slice(request.body.messages.findLastIndex((m) => m.role === 'assistant') + 1).map((m) => String(m.content));
    return { text: `Done: ${results.join(' | ').slice(0, 400)}` };
  }
  const text = lastUserText(request);
  const ask = /^ask (.*)$/.exec(text);
  if (ask) return { toolCalls: [{ name: 'request_input', args: { prompt: ask[1] } }] };
  if (text === 'plan a deploy') return { toolCalls: [{ name: 'ask_user', args: DEPLOY_FORM }] };
  const formAndAsk = /^form and ask (.*)$/.exec(text);
  if (formAndAsk)
    return {
      toolCalls: [
        { name: 'ask_user', args: DEPLOY_FORM },
        { name: 'request_input', args: { prompt: formAndAsk[1] } },
      ],
    };
  if (text === 'both')
    return {
      toolCalls: [
        { name: 'ask_user', args: DEPLOY_FORM },
        { name: 'mcp_everything_get_sum', args: { a: 2, b: 3 } },
      ],
    };
  const call = /^call (\S+)(?: (.*))?$/.exec(text);
  if (call) return { toolCalls: [{ name: call[1], args: call[2] ? (JSON.parse(call[2]) as Record<string, unknown>) : {} }] };
  return { text: `You said: ${text}` };
}

export interface RunRecord {
  events: BaseEvent[];
  finished: Parameters<NonNullable<AgentSubscriber['onRunFinishedEvent']>>[0][];
  failure?: Error;
}

/** One HttpAgent run: a user message added first when given, a resume when given; every event kept. */
export async function clientRun(agent: HttpAgent, input: { text?: string; resume?: ResumeEntry[] }): Promise<RunRecord> {
  const record: RunRecord = { events: [], finished: [] };
  if (input.text !== undefined) agent.addMessage({ id: randomUUID(), role: 'user', content: input.text } satisfies Message);
  try {
    await agent.runAgent(
      { runId: `run-${randomUUID()}`, ...(input.resume ? { resume: input.resume } : {}) },
      {
        onEvent: ({ event }) => void record.events.push(event),
        onRunFinishedEvent: (params) => void record.finished.push(params),
      },
    );
  } catch (error) {
    record.failure = error instanceof Error ? error : new Error(String(error));
  }
  return record;
}

/** Every event valid by @ag-ui/core's schemas, RUN_STARTED first and exactly one terminal event. */
export function checkRun(record: RunRecord, threadId: string): void {
  const events = validateEach(record.events);
  const started = events[0];
  expect(started?.type).toBe('RUN_STARTED');
  checkRunSequence(events, { threadId, runId: started?.type === 'RUN_STARTED' ? started.runId : '' });
}

/** The interrupts the run ended with (its RUN_FINISHED outcome), checked to be one interrupt outcome. */
export function interruptsOf(record: RunRecord): Interrupt[] {
  expect(record.finished).toHaveLength(1);
  const [finished] = record.finished;
  expect(finished.outcome).toBe('interrupt');
  return finished.outcome === 'interrupt' ? finished.interrupts : [];
}
