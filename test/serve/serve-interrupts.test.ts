import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HttpAgent } from '@ag-ui/client';
import { HttpAgent as LegacyHttpAgent } from '@ag-ui/client-legacy';
import type { BaseEvent } from '@ag-ui/core';
import { mcpAgentFolder } from '../helpers/mcp-agent.js';
import { ServeScope } from '../helpers/serve-process.js';
import type { ChatServer } from '../helpers/chat-server.js';
import type { ServeProcess } from '../helpers/serve-process.js';
import { checkRun, clientRun, interruptModel, interruptsOf, DEPLOY_FORM } from '../helpers/interrupt-agent.js';

// One server for the file: every case is a thread of its own.
const scope = new ServeScope();
let serve: ServeProcess;
let chat: ChatServer;
let dir: string;

beforeAll(async () => {
  ({ dir } = mcpAgentFolder({ augments: ['turnControl', 'questions', 'mcp'] }));
  ({ serve, chat } = await scope.start(dir, interruptModel));
}, 60_000);
afterAll(() => scope.stop());

/** One run of the old client: its events as they arrived. */
async function legacyRun(agent: LegacyHttpAgent, text: string): Promise<{ events: BaseEvent[]; failure?: Error }> {
  const events: BaseEvent[] = [];
  agent.addMessage({ id: randomUUID(), role: 'user', content: text });
  try {
    await agent.runAgent({ runId: `run-${randomUUID()}` }, { onEvent: ({ event }) => void events.push(event as unknown as BaseEvent) });
    return { events };
  } catch (error) {
    return { events, failure: error instanceof Error ? error : new Error(String(error)) };
  }
}

function newAgent(): HttpAgent {
  return new HttpAgent({ url: `${serve.url}/agent/run` });
}

function customNamed(events: readonly BaseEvent[], name: string): unknown[] {
  return events.flatMap((event) => (event.type === 'CUSTOM' && 'name' in event && event.name === name && 'value' in event ? [event.value] : []));
}

function sessionLog(threadId: string): Record<string, unknown>[] {
  return readFileSync(join(dir, '.auggy', 'sessions', threadId, 'events.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('serve speaks AG-UI interrupts to a 1.0 client', () => {
  it('request_input ends with one input_required interrupt (the question still said first), and a resume answers it', async () => {
    const agent = newAgent();
    const first = await clientRun(agent, { text: 'ask Which region, eu-west or us-east?' });
    expect(first.failure).toBeUndefined();
    checkRun(first, agent.threadId);
    const [interrupt, ...more] = interruptsOf(first);
    expect(more).toHaveLength(0);
    expect(interrupt).toMatchObject({ reason: 'input_required', message: 'Which region, eu-west or us-east?', toolCallId: expect.any(String) });
    expect(first.finished[0].event).toMatchObject({ result: { status: 'input-required', message: 'Which region, eu-west or us-east?' } });
    expect(agent.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'Which region, eu-west or us-east?' });

    const second = await clientRun(agent, { resume: [{ interruptId: interrupt.id, status: 'resolved', payload: 'eu-west' }] });
    expect(second.failure).toBeUndefined();
    checkRun(second, agent.threadId);
    expect(second.finished[0]).toMatchObject({ outcome: 'success', result: { status: 'completed' } });
    expect(agent.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'You said: eu-west' });
    // The session log keeps the same interrupt object the client got.
    const finished = sessionLog(agent.threadId).flatMap((entry) => {
      const event = entry.event as { type?: string; result?: { interrupts?: unknown[] } } | undefined;
      return event?.type === 'RUN_FINISHED' && event.result?.interrupts ? event.result.interrupts : [];
    });
    expect(finished).toEqual([expect.objectContaining({ id: interrupt.id, reason: 'input_required', message: interrupt.message })]);
  });

  it('a three-field questionnaire is one interrupt with a JSON Schema of its fields; a refused field is asked again alone, then the call completes', async () => {
    const agent = newAgent();
    const first = await clientRun(agent, { text: 'plan a deploy' });
    checkRun(first, agent.threadId);
    const [asked] = interruptsOf(first);
    expect(asked).toMatchObject({ reason: 'input_required', message: DEPLOY_FORM.prompt, toolCallId: expect.any(String) });
    expect(asked.responseSchema).toEqual({
      type: 'object',
      properties: {
        service: { type: 'string', minLength: 1, title: 'Which service?', description: 'Which service?' },
        replicas: { type: 'integer', title: 'How many replicas?', description: 'How many replicas?' },
        env: { type: 'string', enum: ['staging', 'production'], title: 'Which environment?', description: 'Which environment?', default: 'staging' },
      },
      required: ['service', 'replicas', 'env'],
      additionalProperties: false,
    });
    const requestsBefore = chat.requests.length;

    const refused = await clientRun(agent, {
      resume: [{ interruptId: asked.id, status: 'resolved', payload: { service: 'api', replicas: 'three', env: 'production' } }],
    });
    checkRun(refused, agent.threadId);
    const [again] = interruptsOf(refused);
    expect(again.id).not.toBe(asked.id);
    expect(again.toolCallId).toBe(asked.toolCallId);
    // Only the refused field, in the terminal's own words.
    expect(Object.keys((again.responseSchema as { properties: object }).properties)).toEqual(['replicas']);
    expect(again.message).toContain('"three" is not a whole number; type digits, such as 3');
    expect(chat.requests.length).toBe(requestsBefore);

    const done = await clientRun(agent, { resume: [{ interruptId: again.id, status: 'resolved', payload: { replicas: 3 } }] });
    expect(done.failure).toBeUndefined();
    checkRun(done, agent.threadId);
    expect(done.finished[0]).toMatchObject({ outcome: 'success', result: { status: 'completed' } });
    const sent = chat.requests
      .at(-1)
      ?.body.messages.filter((m) => m.role === 'tool')
      .at(-1);
    expect(JSON.parse(String(sent?.content))).toEqual({ status: 'answered', answers: { service: 'api', replicas: 3, env: 'production' } });
    expect(agent.messages.at(-1)).toMatchObject({ role: 'assistant', content: expect.stringContaining('"answered"') });
  });

  it('a cancelled questionnaire is the no-answer branch (declined)', async () => {
    const agent = newAgent();
    const [asked] = interruptsOf(await clientRun(agent, { text: 'plan a deploy' }));
    const done = await clientRun(agent, { resume: [{ interruptId: asked.id, status: 'cancelled' }] });
    checkRun(done, agent.threadId);
    const sent = chat.requests
      .at(-1)
      ?.body.messages.filter((m) => m.role === 'tool')
      .at(-1);
    expect(JSON.parse(String(sent?.content))).toEqual({ status: 'no-answer', reason: 'declined' });
  });

  it('an approval: a tool_call interrupt, nothing runs before approved: true; refused; always lasts for the thread', async () => {
    const agent = newAgent();
    const first = await clientRun(agent, { text: 'call mcp_everything_get_sum {"a":1,"b":2}' });
    checkRun(first, agent.threadId);
    const [approval] = interruptsOf(first);
    expect(approval).toMatchObject({
      reason: 'tool_call',
      toolCallId: expect.any(String),
      message: expect.stringMatching(/everything wants to run get-sum[\s\S]*"a": 1/),
    });
    expect(approval.responseSchema).toMatchObject({ properties: { approved: { type: 'boolean' }, always: { type: 'boolean' } }, required: ['approved'] });
    expect(customNamed(first.events, 'mcp.approval')).toEqual([]);

    const allowed = await clientRun(agent, { resume: [{ interruptId: approval.id, status: 'resolved', payload: { approved: true } }] });
    checkRun(allowed, agent.threadId);
    expect(customNamed(allowed.events, 'mcp.approval')).toEqual([expect.objectContaining({ decision: 'approved', by: 'person' })]);
    expect(agent.messages.at(-1)).toMatchObject({ role: 'assistant', content: expect.stringContaining('The sum of 1 and 2 is 3') });

    const second = await clientRun(agent, { text: 'call mcp_everything_get_sum {"a":5,"b":5}' });
    const [refusal] = interruptsOf(second);
    const refused = await clientRun(agent, { resume: [{ interruptId: refusal.id, status: 'resolved', payload: { approved: false } }] });
    checkRun(refused, agent.threadId);
    expect(customNamed(refused.events, 'mcp.approval')).toEqual([expect.objectContaining({ decision: 'refused', by: 'person' })]);
    expect(agent.messages.at(-1)).toMatchObject({ content: expect.stringContaining('The person refused to let mcp_everything_get_sum run') });

    const third = await clientRun(agent, { text: 'call mcp_everything_get_sum {"a":2,"b":2}' });
    const [always] = interruptsOf(third);
    const kept = await clientRun(agent, { resume: [{ interruptId: always.id, status: 'resolved', payload: { approved: true, always: true } }] });
    expect(customNamed(kept.events, 'mcp.approval')).toEqual([expect.objectContaining({ decision: 'approved', by: 'person', always: true })]);
    // The thread remembers: the next call runs without asking.
    const fourth = await clientRun(agent, { text: 'call mcp_everything_get_sum {"a":4,"b":4}' });
    checkRun(fourth, agent.threadId);
    expect(fourth.finished[0]).toMatchObject({ outcome: 'success', result: { status: 'completed' } });
    expect(customNamed(fourth.events, 'mcp.approval')).toEqual([expect.objectContaining({ decision: 'approved', by: 'session' })]);
  });

  it("an MCP server's form is an interrupt of its fields; the answer calls the server's tool again, whose form gets it", async () => {
    const agent = newAgent();
    const first = await clientRun(agent, { text: 'call mcp_everything_trigger_elicitation_request' });
    checkRun(first, agent.threadId);
    const [form] = interruptsOf(first);
    expect(form).toMatchObject({ reason: 'input_required', toolCallId: expect.any(String) });
    expect(form.responseSchema).toMatchObject({
      type: 'object',
      required: expect.arrayContaining(['name']),
      properties: { name: { type: 'string' }, check: { type: 'boolean' } },
    });
    const done = await clientRun(agent, { resume: [{ interruptId: form.id, status: 'resolved', payload: { name: 'Ada Lovelace', check: true } }] });
    expect(done.failure).toBeUndefined();
    checkRun(done, agent.threadId);
    expect(done.finished[0]).toMatchObject({ outcome: 'success', result: { status: 'completed' } });
    const result =
      chat.requests
        .at(-1)
        ?.body.messages.filter((m) => m.role === 'tool')
        .map((m) => String(m.content))
        .at(-1) ?? '';
    expect(result).toContain('- Name: Ada Lovelace');
    expect(result).toContain('- Agreed to terms: true');
  });

  it('two questions in one batch end one run with both interrupts, each with its own id; one resume answers both', async () => {
    const agent = newAgent();
    const first = await clientRun(agent, { text: 'both' });
    checkRun(first, agent.threadId);
    const interrupts = interruptsOf(first);
    expect(interrupts.map((i) => i.reason).sort()).toEqual(['input_required', 'tool_call']);
    expect(new Set(interrupts.map((i) => i.id)).size).toBe(2);
    const [form, approval] = [interrupts.find((i) => i.reason === 'input_required'), interrupts.find((i) => i.reason === 'tool_call')];
    const done = await clientRun(agent, {
      resume: [
        // A field left out takes its default, as `-` does at the terminal.
        { interruptId: form?.id ?? '', status: 'resolved', payload: { service: 'web', replicas: 2 } },
        { interruptId: approval?.id ?? '', status: 'resolved', payload: { approved: true } },
      ],
    });
    expect(done.failure).toBeUndefined();
    checkRun(done, agent.threadId);
    expect(done.finished[0]).toMatchObject({ outcome: 'success', result: { status: 'completed' } });
    const results =
      chat.requests
        .at(-1)
        ?.body.messages.filter((m) => m.role === 'tool')
        .map((m) => String(m.content)) ?? [];
    expect(results).toContain(JSON.stringify({ status: 'answered', answers: { service: 'web', replicas: 2, env: 'staging' } }));
    expect(results.some((r) => r.includes('The sum of 2 and 3 is 5'))).toBe(true);
  });

  it("request_input beside a questionnaire held open: both are interrupts, and request_input's question is still said as assistant text", async () => {
    const agent = newAgent();
    const first = await clientRun(agent, { text: 'form and ask Anything else before the deploy?' });
    expect(first.failure).toBeUndefined();
    checkRun(first, agent.threadId);
    const interrupts = interruptsOf(first);
    expect(interrupts).toEqual([
      expect.objectContaining({ reason: 'input_required', message: DEPLOY_FORM.prompt }),
      expect.objectContaining({ reason: 'input_required', message: 'Anything else before the deploy?' }),
    ]);
    expect(agent.messages.filter((m) => m.role === 'assistant').map((m) => m.content)).toContain('Anything else before the deploy?');

    const [form, question] = interrupts;
    const done = await clientRun(agent, {
      resume: [
        { interruptId: form.id, status: 'resolved', payload: { service: 'api', replicas: 1, env: 'staging' } },
        { interruptId: question.id, status: 'resolved', payload: 'Nothing else.' },
      ],
    });
    expect(done.failure).toBeUndefined();
    checkRun(done, agent.threadId);
    expect(done.finished[0]).toMatchObject({ outcome: 'success', result: { status: 'completed' } });
    // Both answers reach the model: the form's as its call's result, request_input's as the person's message.
    const sent = chat.requests.at(-1)?.body.messages ?? [];
    expect(sent.filter((m) => m.role === 'tool').map((m) => String(m.content))).toContain(
      JSON.stringify({ status: 'answered', answers: { service: 'api', replicas: 1, env: 'staging' } }),
    );
    expect(sent.at(-1)).toMatchObject({ role: 'user', content: 'Nothing else.' });
  });

  it('a run that does not answer an open interrupt is refused with RUN_ERROR interrupt_pending naming it; a resume naming nothing open is ignored with a warning', async () => {
    const agent = newAgent();
    const [open] = interruptsOf(await clientRun(agent, { text: 'ask Which one?' }));
    // HttpAgent refuses on its side; another client (or one that forgot) is refused by the server.
    const body = {
      threadId: agent.threadId,
      runId: 'run-x',
      messages: [{ id: 'u-x', role: 'user', content: 'something else' }],
      tools: [],
      context: [],
      state: {},
      forwardedProps: {},
      protocolVersion: '1.0.0',
    };
    const response = await fetch(`${serve.url}/agent/run`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const text = await response.text();
    expect(text).toContain('"code":"interrupt_pending"');
    expect(text).toContain(open.id);
    expect(text).not.toContain('RUN_FINISHED');

    const answered = await clientRun(agent, {
      resume: [
        { interruptId: open.id, status: 'resolved', payload: 'that one' },
        { interruptId: 'int_nothing', status: 'resolved', payload: 'x' },
      ],
    });
    checkRun(answered, agent.threadId);
    expect(customNamed(answered.events, 'auggy.system')).toEqual([{ text: expect.stringMatching(/resume names int_nothing, which is no open question/) }]);
    expect(agent.messages.at(-1)).toMatchObject({ content: 'You said: that one' });
    // Answered once is answered: naming it again is only a warning.
    const twice = await clientRun(agent, { resume: [{ interruptId: open.id, status: 'resolved', payload: 'again' }] });
    checkRun(twice, agent.threadId);
    expect(customNamed(twice.events, 'auggy.system')).toEqual([
      { text: expect.stringMatching(new RegExp(`resume names ${open.id}, which is no open question`)) },
    ]);
    expect(twice.finished[0]).toMatchObject({ outcome: 'success' });
  });
});

describe("a client from before interrupts (@ag-ui/client 0.0.59, no protocolVersion) sees today's wire", () => {
  it('request_input: RUN_FINISHED result input-required and no outcome; the next message answers it', async () => {
    const agent = new LegacyHttpAgent({ url: `${serve.url}/agent/run` });
    const first = await legacyRun(agent, 'ask Which region?');
    expect(first.failure).toBeUndefined();
    const events = first.events;
    const finished = events.at(-1) as unknown as Record<string, unknown>;
    expect(finished).toMatchObject({ type: 'RUN_FINISHED', result: { status: 'input-required', message: 'Which region?' } });
    expect(finished.outcome).toBeUndefined();
    expect(events.map((e) => e.type)).toEqual([
      'RUN_STARTED',
      'TOOL_CALL_START',
      'TOOL_CALL_ARGS',
      'TOOL_CALL_END',
      'TOOL_CALL_RESULT',
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_END',
      'RUN_FINISHED',
    ]);
    const second = await legacyRun(agent, 'eu-west');
    expect(second.failure).toBeUndefined();
    expect(agent.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'You said: eu-west' });
  });

  it('a questionnaire and an approval are answered "nobody there" at once, as before', async () => {
    const agent = new LegacyHttpAgent({ url: `${serve.url}/agent/run` });
    const form = await legacyRun(agent, 'plan a deploy');
    expect((form.events.at(-1) as unknown as Record<string, unknown>).outcome).toBeUndefined();
    expect(agent.messages.at(-1)).toMatchObject({ content: expect.stringContaining('"reason":"away"') });
    const approval = await legacyRun(agent, 'call mcp_everything_get_sum {"a":1,"b":2}');
    expect(customNamed(approval.events, 'mcp.approval')).toEqual([expect.objectContaining({ decision: 'refused', by: 'nobody' })]);
  });
});
