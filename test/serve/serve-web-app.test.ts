import { afterEach, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { HttpAgent, type BaseEvent, type Message, type Tool } from '@ag-ui/client';
import { makeAgentFolder } from '../helpers/agent-fixture.js';
import type { ChatReply } from '../helpers/chat-server.js';
import { checkRunSequence, validateEach } from '../helpers/agui-events.js';
import { ServeScope } from '../helpers/serve-process.js';

const scope = new ServeScope();
afterEach(() => scope.stop());

const BOARD = `type: board
config:
  lines:
    - name: progress
      owner: agent
      initial: "not started"
`;

/** An agent with a board (shared state) served against a loopback model. */
function serveAgent(replies: ChatReply[]) {
  const dir = makeAgentFolder({ augments: ['turnControl', 'board'], files: { 'augments/board/augment.yaml': BOARD } });
  return scope.start(dir, replies);
}

interface Run {
  events: BaseEvent[];
  result?: unknown;
  pending?: string[];
  failure?: Error;
}

async function run(agent: HttpAgent, tools: Tool[] = []): Promise<Run> {
  const record: Run = { events: [] };
  try {
    await agent.runAgent(
      { runId: `run-${randomUUID()}`, tools },
      {
        onEvent: ({ event }) => void record.events.push(event),
        onRunFinishedEvent: (params) => {
          if (params.outcome === 'success') {
            record.result = params.result;
            record.pending = params.pendingToolCallIds;
          }
        },
      },
    );
  } catch (error) {
    record.failure = error instanceof Error ? error : new Error(String(error));
  }
  const events = validateEach(record.events);
  const first = events[0];
  checkRunSequence(events, { threadId: agent.threadId, runId: first?.type === 'RUN_STARTED' ? first.runId : '' });
  return record;
}

function say(agent: HttpAgent, text: string): void {
  agent.addMessage({ id: randomUUID(), role: 'user', content: text } satisfies Message);
}

const CONFIRM: Tool = {
  name: 'confirm_order',
  description: 'Ask the person on the page to confirm the order.',
  parameters: { type: 'object', properties: { item: { type: 'string' } }, required: ['item'] },
};

describe('auggy serve as a web app uses it (@ag-ui/client)', () => {
  it("keeps the client's own state: the snapshot is its state with the board merged in under its key", async () => {
    const { serve } = await serveAgent([
      { toolCalls: [{ name: 'board_write', args: { line: 'progress', text: 'halfway' } }] },
      { text: 'Working on it.' },
      { text: 'Still here.' },
    ]);
    const agent = new HttpAgent({ url: `${serve.url}/agent/run`, initialState: { theme: 'dark', cart: [{ sku: 'A1', qty: 2 }] } });
    say(agent, 'start the job');
    const first = await run(agent);
    expect(first.failure).toBeUndefined();
    const snapshot = first.events.find((e) => e.type === 'STATE_SNAPSHOT') as { snapshot: Record<string, unknown> } | undefined;
    expect(snapshot?.snapshot).toMatchObject({ theme: 'dark', cart: [{ sku: 'A1', qty: 2 }], board: { progress: { owner: 'agent' } } });
    // Deltas touch only the board's key.
    const deltas = first.events.filter((e) => e.type === 'STATE_DELTA') as unknown as { delta: { path: string }[] }[];
    expect(deltas.length).toBeGreaterThan(0);
    expect(deltas.flatMap((d) => d.delta.map((op) => op.path)).every((path) => path.startsWith('/board/'))).toBe(true);
    expect(agent.state).toMatchObject({ theme: 'dark', cart: [{ sku: 'A1', qty: 2 }], board: { progress: { text: 'halfway', by: 'agent' } } });

    say(agent, 'and now?');
    await run(agent);
    expect(agent.state).toMatchObject({ theme: 'dark', cart: [{ sku: 'A1', qty: 2 }], board: { progress: { text: 'halfway' } } });
  });

  it('a frontend tool round trip in two runs: the call is left for the page, its result resumes the turn', async () => {
    const { serve, chat } = await serveAgent([
      { text: 'Let me check with you.', toolCalls: [{ name: 'confirm_order', args: { item: 'blue mug' }, id: 'call_confirm' }] },
      { text: 'Ordered the blue mug.' },
    ]);
    const agent = new HttpAgent({ url: `${serve.url}/agent/run` });
    say(agent, 'order the blue mug');
    const first = await run(agent, [CONFIRM]);
    expect(first.failure).toBeUndefined();
    expect(chat.requests[0].body.tools?.map((t) => t.function.name)).toEqual(expect.arrayContaining(['request_input', 'confirm_order']));
    const types = first.events.map((e) => e.type);
    expect(types).toEqual(expect.arrayContaining(['TOOL_CALL_START', 'TOOL_CALL_ARGS', 'TOOL_CALL_END']));
    expect(types).not.toContain('TOOL_CALL_RESULT');
    expect(first.pending).toEqual(['call_confirm']);
    expect(first.result).toEqual({ status: 'input-required' });
    expect(chat.requests).toHaveLength(1);

    // The page runs the tool and answers with a tool message, as CopilotKit's actions do.
    agent.addMessage({ id: randomUUID(), role: 'tool', toolCallId: 'call_confirm', content: 'confirmed by the person' });
    const second = await run(agent, [CONFIRM]);
    expect(second.failure).toBeUndefined();
    expect(second.result).toEqual({ status: 'completed' });
    expect(chat.requests).toHaveLength(2);
    const sent = chat.requests[1].body.messages;
    expect(sent.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(sent[3]).toMatchObject({ role: 'tool', tool_call_id: 'call_confirm', content: 'confirmed by the person' });
    // The last user message is not replayed.
    expect(sent.filter((m) => m.role === 'user')).toHaveLength(1);
    expect(agent.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'Ordered the blue mug.' });
  });

  it('a tool message for a call nobody left open is refused before the stream opens', async () => {
    const { serve } = await serveAgent([{ text: 'Hi.' }]);
    const agent = new HttpAgent({ url: `${serve.url}/agent/run` });
    agent.addMessage({ id: randomUUID(), role: 'tool', toolCallId: 'call_nowhere', content: 'x' });
    await expect(agent.runAgent({ runId: 'r1' })).rejects.toThrow(/HTTP 400.*answers no call/);
  });

  it("a history the session does not hold is adopted as the thread's transcript, once", async () => {
    const { serve, chat } = await serveAgent([{ text: 'Your order ships Monday.' }, { text: 'You are welcome.' }]);
    const history: Message[] = [
      { id: 'h1', role: 'user', content: 'Where is order 42?' },
      { id: 'h2', role: 'assistant', content: 'It is packed and waiting for pickup.' },
    ];
    const agent = new HttpAgent({ url: `${serve.url}/agent/run`, threadId: `web-${randomUUID().slice(0, 8)}`, initialMessages: history });
    say(agent, 'when does it ship?');
    const first = await run(agent);
    expect(first.failure).toBeUndefined();
    expect(chat.requests[0].body.messages.slice(1)).toEqual([
      { role: 'user', content: 'Where is order 42?' },
      { role: 'assistant', content: 'It is packed and waiting for pickup.' },
      { role: 'user', content: 'when does it ship?' },
    ]);
    expect(await serve.waitForStderr(/adopted 2 message/)).toMatch(/adopted 2 message\(s\) of the client's history/);

    say(agent, 'thanks');
    await run(agent);
    // Recognised by id the second time: nothing is adopted again or sent twice.
    expect(chat.requests[1].body.messages.slice(1).map((m) => m.content)).toEqual([
      'Where is order 42?',
      'It is packed and waiting for pickup.',
      'when does it ship?',
      'Your order ships Monday.',
      'thanks',
    ]);
  });
});
