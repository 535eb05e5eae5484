import { afterEach, describe, expect, it } from 'vitest';
import { makeAgentFolder } from '../helpers/agent-fixture.js';
import { auggy } from '../helpers/auggy-cli.js';
import { postRun, readEvents, runInput, textOf } from '../helpers/agui-events.js';
import { chatServersPerTest } from '../helpers/chat-server.js';
import { usePostgres } from '../helpers/postgres.js';
import { startServe, type ServeProcess } from '../helpers/serve-process.js';
import { FACT, isSummaryRequest, modelReply, requestText, turnMessage } from './compaction-helpers.js';

const pg = usePostgres();

// Registered before the serves' afterEach, so it runs after it: the serves are gone before their model server closes.
const startServer = chatServersPerTest();
const serves: ServeProcess[] = [];
afterEach(async () => {
  for (const serve of serves.splice(0)) {
    serve.signal('SIGKILL');
    await serve.exited;
  }
});

describe('compaction on the PostgreSQL store', () => {
  it('a thread compacted by one serve is rebuilt compacted by the next, and auggy sessions counts its compactions', async () => {
    const { url } = await pg.freshDatabase();
    const server = await startServer(modelReply, { contextTokens: 3000, overflowShape: 'openai' });
    const dir = makeAgentFolder({
      engine: `engine:\n  provider: openai-compatible\n  model: test\n  baseURL: ${server.url}\n  maxTokens: 200\n  maxContextTokens: 3000\n`,
    });
    const first = await startServe(dir, ['--store', url]);
    serves.push(first);
    for (let n = 1; n <= 10; n++) {
      expect(textOf(await readEvents(await postRun(first.url, runInput('pg-thread', turnMessage(n)))))).toBe(`noted ${n}`);
    }
    first.signal('SIGTERM');
    await first.exited;
    const listed = JSON.parse(String((await auggy(['sessions', dir, '--store', url, '--json'])).stdout)) as {
      id: string;
      messages: number;
      compactions?: number;
      context?: { limit?: number };
    }[];
    expect(listed[0]).toMatchObject({ messages: 10, context: { limit: 3000 } });
    expect(listed[0].compactions).toBeGreaterThanOrEqual(2);

    const second = await startServe(dir, ['--store', url]);
    serves.push(second);
    const before = server.requests.length;
    expect(textOf(await readEvents(await postRun(second.url, runInput('pg-thread', 'What is the secret code?'))))).toBe('The secret code is AZ-4471.');
    const sent = server.requests.slice(before).filter((request) => !isSummaryRequest(request));
    // The new server sent the compacted transcript: the summary first, not the ten turns whole.
    const firstMessage = sent[0].body.messages.find((message) => message.role === 'user');
    expect(String(firstMessage?.content)).toMatch(/^\[The earlier conversation, summarised/);
    expect(requestText(sent[0])).toContain(FACT);
    expect(sent[0].body.messages.filter((message) => message.role === 'user').length).toBeLessThan(6);
  });
});
