import { afterEach, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { HttpAgent, type BaseEvent } from '@ag-ui/client';
import { postRun, runInput } from '../helpers/agui-events.js';
import { makeAgentFolder } from '../helpers/agent-fixture.js';
import { boardFolder, systemPrompt } from '../helpers/board-fixture.js';
import { ServeScope } from '../helpers/serve-process.js';

const scope = new ServeScope();
afterEach(() => scope.stop());

function postBoard(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${url}/agent/board`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
}

describe('POST /agent/board with sessions in the agent folder', () => {
  it.each(['POST /agent/board', 'state in a second run input'])('a board write during a run reaches its next round and its client: %s', async (via) => {
    const dir = boardFolder();
    const { serve, chat } = await scope.start(dir, (_request, index) =>
      index === 0 ? { text: 'reading the board', toolCalls: [{ name: 'board_read', args: {} }], hold: true } : { text: 'done' },
    );
    const threadId = `thread-${randomUUID()}`;
    const agent = new HttpAgent({ url: `${serve.url}/agent/run`, threadId });
    agent.addMessage({ id: randomUUID(), role: 'user', content: 'work through the queue' });
    let sawDelta: () => void = () => undefined;
    const deltaSeen = new Promise<void>((resolve) => (sawDelta = resolve));
    const run = agent.runAgent(
      { runId: `run-${randomUUID()}` },
      {
        onEvent: ({ event }: { event: BaseEvent }) => {
          if (event.type === 'STATE_DELTA' && JSON.stringify(event).includes('review the docs')) sawDelta();
        },
      },
    );
    await chat.held();
    if (via === 'POST /agent/board') {
      const response = await postBoard(serve.url, { threadId, lines: { queue: 'review the docs' } });
      expect(response.status).toBe(200);
    } else {
      const response = await postRun(
        serve.url,
        runInput(threadId, 'and this', { state: { board: { queue: { text: 'review the docs' }, progress: { text: 'not mine' } } } }),
      );
      expect(response.status).toBe(409);
      const { error } = (await response.json()) as { error: string };
      expect(error).toMatch(
        /the state it carried was applied, and the run in flight sees it at its next round \(board: not written from the client's state: .*progress/,
      );
    }
    await deltaSeen;
    chat.release();
    await run;
    expect(systemPrompt(chat.requests[1])).toContain('review the docs');
    expect(existsSync(join(dir, '.auggy', 'sessions', threadId, 'board.json'))).toBe(true);
  });

  it('needs the token like /agent/run and refuses a body that names no thread', async () => {
    const { serve } = await scope.start(boardFolder(), [{ text: 'hi' }], ['--token', 'secret']);
    const refused = await postBoard(serve.url, { threadId: 't1', lines: { queue: 'x' } });
    expect(refused.status).toBe(401);
    const wrongBody = await postBoard(serve.url, { lines: { queue: 'x' } }, { authorization: 'Bearer secret' });
    expect(wrongBody.status).toBe(400);
    expect(((await wrongBody.json()) as { error: string }).error).toMatch(/threadId must name a thread/);
  });

  it('refuses a line the person may not write, in words that name the line, and writes none of the lines sent', async () => {
    const dir = boardFolder();
    const { serve } = await scope.start(dir, [{ text: 'hi' }]);
    const threadId = `thread-${randomUUID()}`;
    expect((await postRun(serve.url, runInput(threadId, 'hello'))).status).toBe(200);
    const response = await postBoard(serve.url, { threadId, lines: { queue: 'review the docs', progress: 'not mine' } });
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: string };
    expect(error).toMatch(/^line "progress" belongs to /);
    expect(error).not.toContain('--board');
    expect(existsSync(join(dir, '.auggy', 'sessions', threadId, 'board.json'))).toBe(false);
  });

  it('answers 404 for an agent without a board', async () => {
    const { serve } = await scope.start(makeAgentFolder(), [{ text: 'hi' }]);
    const threadId = `thread-${randomUUID()}`;
    expect((await postRun(serve.url, runInput(threadId, 'hello'))).status).toBe(200);
    const response = await postBoard(serve.url, { threadId, lines: { queue: 'x' } });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: string }).error).toBe('this agent has no board; add the board augment to agent.yaml');
  });
});
