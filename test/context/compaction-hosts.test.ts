import { afterEach, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { AUGGY_BIN, makeAgentFolder } from '../helpers/agent-fixture.js';
import { auggy } from '../helpers/auggy-cli.js';
import { checkRunSequence, postRun, readEvents, runInput, textOf } from '../helpers/agui-events.js';
import { chatServersPerTest } from '../helpers/chat-server.js';
import { SERVE_ENV, startServe, type ServeProcess } from '../helpers/serve-process.js';
import { FACT, isSummaryRequest, modelReply, requestText, turnMessage } from './compaction-helpers.js';

// Registered before the serve's afterEach, so it runs after it: the serve is gone before its model server closes.
const startServer = chatServersPerTest();
let serve: ServeProcess | undefined;
afterEach(async () => {
  serve?.signal('SIGKILL');
  await serve?.exited;
  serve = undefined;
});

/** An agent folder on the loopback server with a 3,000-token window: a compaction every few turns of 1,500 characters. */
function folderOn(url: string): string {
  return makeAgentFolder({ engine: `engine:\n  provider: openai-compatible\n  model: test\n  baseURL: ${url}\n  maxTokens: 200\n  maxContextTokens: 3000\n` });
}

const print = (dir: string, ...args: string[]) => auggy(['run', dir, '--print', ...args]);

describe('a compaction as each host shows it', () => {
  it('--print: context {used, limit} in json, one line on stderr, context.compacted in stream-json', async () => {
    const server = await startServer(modelReply, { contextTokens: 3000, overflowShape: 'vllm' });
    const dir = folderOn(server.url);
    const first = await print(dir, '--output', 'json', turnMessage(1));
    expect(first.exitCode).toBe(0);
    const summary = JSON.parse(String(first.stdout)) as { sessionId: string; context: { used: number; limit: number } };
    expect(summary.context.limit).toBe(3000);
    expect(summary.context.used).toBeGreaterThan(375);
    let compactedLine: string | undefined;
    for (let n = 2; n <= 9 && compactedLine === undefined; n++) {
      const text = await print(dir, '--session', summary.sessionId, turnMessage(n));
      expect(text.exitCode).toBe(0);
      compactedLine = String(text.stderr)
        .split('\n')
        .find((line) => line.startsWith('context compacted'));
    }
    type Streamed = { type: string; name?: string; value?: { reason: string; tokensBefore: number; tokensAfter: number; limit: number } };
    let streamed: Streamed[] = [];
    for (let n = 10; n <= 17 && streamed.length === 0; n++) {
      const stream = await print(dir, '--session', summary.sessionId, '--output', 'stream-json', turnMessage(n));
      streamed = String(stream.stdout)
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Streamed)
        .filter((event) => event.type === 'CUSTOM' && event.name === 'context.compacted');
    }
    expect(compactedLine).toMatch(
      /^context compacted \(\d+ earlier messages summarised\): [\d.k]+ → [\d.k]+ tokens of 3k; the full history stays in the session log$/,
    );
    expect(streamed[0]?.value).toMatchObject({ reason: 'auto', limit: 3000 });
    expect(streamed[0]?.value?.tokensAfter).toBeLessThan(streamed[0]?.value?.tokensBefore ?? 0);
    const sessions = JSON.parse(String((await auggy(['sessions', dir, '--json'])).stdout)) as {
      context?: { used: number; limit: number };
      compactions?: number;
    }[];
    expect(sessions[0].context?.limit).toBe(3000);
    expect(sessions[0].compactions).toBeGreaterThanOrEqual(2);
  });

  it('serve: a thread compacts inside its runs (context.compacted as a CUSTOM event) and remembers turn 1', async () => {
    const server = await startServer(modelReply, { contextTokens: 3000, overflowShape: 'openai' });
    serve = await startServe(folderOn(server.url));
    const compacted: unknown[] = [];
    for (let n = 1; n <= 12; n++) {
      const input = runInput('long-thread', turnMessage(n));
      const events = await readEvents(await postRun(serve.url, input));
      checkRunSequence(events, { threadId: input.threadId, runId: input.runId });
      expect(textOf(events)).toBe(`noted ${n}`);
      for (const event of events) if (event.type === 'CUSTOM' && event.name === 'context.compacted') compacted.push(event.value);
    }
    expect(compacted.length).toBeGreaterThanOrEqual(2);
    const input = runInput('long-thread', 'What is the secret code?');
    expect(textOf(await readEvents(await postRun(serve.url, input)))).toBe('The secret code is AZ-4471.');
    expect(server.requests.filter((request) => !isSummaryRequest(request)).every((request) => requestText(request).includes(FACT))).toBe(true);
  });

  it('kill -9 while the summary is being written leaves a session that resumes and compacts on its next turn', async () => {
    let holdSummary = true;
    const server = await startServer((request) => (isSummaryRequest(request) && holdSummary ? { ...modelReply(request), hold: true } : modelReply(request)), {
      contextTokens: 3000,
      overflowShape: 'llama.cpp',
    });
    const dir = folderOn(server.url);
    const first = JSON.parse(String((await print(dir, '--output', 'json', turnMessage(1))).stdout)) as { sessionId: string };
    let killed = false;
    for (let n = 2; n <= 10 && !killed; n++) {
      const run = execa(process.execPath, [AUGGY_BIN, 'run', dir, '--print', '--session', first.sessionId, turnMessage(n)], {
        reject: false,
        env: SERVE_ENV,
      });
      const held = server.held().then(() => 'held' as const);
      const outcome = await Promise.race([held, run.then(() => 'ended' as const)]);
      if (outcome === 'held') {
        run.kill('SIGKILL');
        await run;
        killed = true;
      }
    }
    expect(killed).toBe(true);
    holdSummary = false;
    server.release();
    const next = await print(dir, '--session', first.sessionId, '--output', 'json', 'What is the secret code?');
    expect(next.exitCode).toBe(0);
    expect(JSON.parse(String(next.stdout))).toMatchObject({ status: 'completed', text: 'The secret code is AZ-4471.' });
    expect(String(next.stderr)).toMatch(/context compacted/);
  });
});
