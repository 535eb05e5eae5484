import { afterEach, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { HttpAgent, type BaseEvent } from '@ag-ui/client';
import { checkRunSequence, validateEach } from '../../helpers/agui-events.js';
import type { ReceivedRequest } from '../../helpers/chat-server.js';
import { ServeScope } from '../../helpers/serve-process.js';
import { boardFolder, systemPrompt } from './harness.js';

const scope = new ServeScope();
afterEach(() => scope.stop());

interface BoardState {
  board: Record<string, { owner: string; text: string; by?: string }>;
}

/** One HttpAgent run; every event is checked against @ag-ui/core and the run's sequence. */
async function clientRun(agent: HttpAgent, text: string): Promise<BaseEvent[]> {
  const events: BaseEvent[] = [];
  const runId = `run-${randomUUID()}`;
  agent.addMessage({ id: randomUUID(), role: 'user', content: text });
  await agent.runAgent({ runId }, { onEvent: ({ event }) => void events.push(event) });
  checkRunSequence(validateEach(events), { threadId: agent.threadId, runId });
  return events;
}

const types = (events: BaseEvent[]) => events.map((event) => (event.type === 'CUSTOM' ? `CUSTOM:${(event as BaseEvent & { name: string }).name}` : event.type));
const systemLines = (events: BaseEvent[]) =>
  events.flatMap((event) =>
    event.type === 'CUSTOM' && (event as BaseEvent & { name: string }).name === 'auggy.system'
      ? [(event as BaseEvent & { value: { text: string } }).value.text]
      : [],
  );

describe('the board as AG-UI shared state (auggy serve, @ag-ui/client HttpAgent)', () => {
  it('snapshot at run start, deltas as the agent writes; the client state writes person lines and never agent lines', async () => {
    const agentReplies = (request: ReceivedRequest, index: number) => {
      if (index === 0) return { toolCalls: [{ name: 'board_write', args: { line: 'progress', text: 'step 1 done' } }] };
      return { text: `round ${index}: ${systemPrompt(request).includes('> from the client') ? 'saw the client line' : 'no client line'}` };
    };
    const { serve, chat } = await scope.start(boardFolder(), agentReplies);
    const agent = new HttpAgent({ url: `${serve.url}/agent/run` });

    const first = await clientRun(agent, 'start');
    expect(types(first).slice(0, 2)).toEqual(['RUN_STARTED', 'STATE_SNAPSHOT']);
    expect(types(first)).toContain('STATE_DELTA');
    expect(types(first)).toContain('CUSTOM:board.changed');
    // The client folded the delta into its own copy of the state.
    expect((agent.state as BoardState).board.progress).toMatchObject({ owner: 'agent', text: 'step 1 done', by: 'agent' });

    // The client edits its copy and sends it back whole: the person's line is written, the echoed
    // agent line is not a refusal.
    const state = agent.state as BoardState;
    agent.setState({ board: { ...state.board, queue: { ...state.board.queue, text: 'from the client' } } });
    const second = await clientRun(agent, 'carry on');
    expect(systemLines(second)).toEqual([]);
    expect(systemPrompt(chat.requests.at(-1)!)).toContain(
      "## queue (the person's: read it, do not write it, last written by the person)\nWhat the person wants next.\n> from the client",
    );
    expect((agent.state as BoardState).board.queue).toMatchObject({ text: 'from the client', by: 'person' });

    // An agent line changed by the client is refused: not applied, and the client is told why.
    const now = agent.state as BoardState;
    agent.setState({ board: { ...now.board, progress: { ...now.board.progress, text: 'client says done' } } });
    const third = await clientRun(agent, 'status?');
    expect(systemLines(third)).toEqual([
      'board: not written from the client\'s state: line "progress" belongs to the agent (owner: agent): you can read it but not write it; lines you can write: queue, notes',
    ]);
    expect(systemPrompt(chat.requests.at(-1)!)).toContain('> step 1 done');
    // The run's snapshot puts the client's copy back in line with the board.
    expect((agent.state as BoardState).board.progress.text).toBe('step 1 done');
  });
});
