import { describe, expect, it } from 'vitest';
import type { KernelEvent } from '../../src/kernel/events.js';
import { clientTool } from '../../src/hosts/agui/client-tools.js';
import { chatServersPerTest, type ChatReply, type ReceivedRequest } from '../helpers/chat-server.js';
import { agentOnServer, isSummaryRequest, modelReply } from './compaction-helpers.js';

const startServer = chatServersPerTest();

/** The system lines a conversation said, in order. */
function systemLines(conversation: { subscribe(listener: (event: KernelEvent) => void): unknown }): string[] {
  const lines: string[] = [];
  conversation.subscribe((event) => {
    if (event.type === 'CUSTOM' && event.name === 'auggy.system') lines.push((event.value as { text: string }).text);
  });
  return lines;
}

function lastText(request: ReceivedRequest): string {
  const last = request.body.messages.at(-1);
  return typeof last?.content === 'string' ? last.content : '';
}

/** `turn N: ` and `chars` characters of notes: a person's long message. */
function longTurn(n: number, chars: number): string {
  return `turn ${n}: ${'notes on the rollout, '.repeat(Math.ceil(chars / 22))}`.slice(0, chars);
}

describe('compaction prunes first and never loops', () => {
  it('old tool outputs are pruned, with no summary, when that alone brings the context down', async () => {
    const fetchLog = clientTool({ name: 'fetch_log', description: 'The page fetches the build log.', parameters: { type: 'object', properties: {} } });
    const server = await startServer(
      (request): ChatReply => {
        if (request.body.messages.at(-1)?.role === 'tool') return { text: 'noted 1' };
        if (lastText(request) === 'fetch the build log') return { toolCalls: [{ name: 'fetch_log', args: {} }] };
        return modelReply(request);
      },
      { contextTokens: 40_000 },
    );
    const conversation = await (await agentOnServer(server.url, 8000)).open();
    const lines = systemLines(conversation);
    const asked = await conversation.runTurn('fetch the build log', { clientTools: [fetchLog] });
    expect(asked.status).toBe('input-required');
    const [call] = conversation.openToolCalls();
    const log = 'step ok: compiled one more module\n'.repeat(800);
    expect((await conversation.resumeTurn([{ toolCallId: call.toolCallId, content: log }], { clientTools: [fetchLog] })).text).toBe('noted 1');

    const next = await conversation.runTurn('turn 2: what next?');
    expect(next).toMatchObject({ status: 'completed', text: 'noted 2' });
    expect(server.requests.some(isSummaryRequest)).toBe(false);
    const compactions = conversation.session.entries().entries.filter((entry) => entry.kind === 'compaction');
    expect(compactions).toEqual([expect.objectContaining({ reason: 'auto', prunedCalls: [call.toolCallId], replacedMessages: 0 })]);
    expect(compactions[0]).not.toHaveProperty('summary');
    expect(lines).toContainEqual(expect.stringMatching(/^context compacted \(1 old tool output pruned\): [\d.k]+ → [\d.k]+ tokens of 8k;/));
    // The call stays, beside a note in its output's place; the person's words are all there.
    const sent = server.requests.at(-1)?.body.messages ?? [];
    expect(sent.find((message) => message.role === 'tool')?.content).toBe(
      `[This output (${log.length} characters) was pruned to save context; call the tool again if it is needed.]`,
    );
    expect(sent.filter((message) => message.role === 'user').map((message) => message.content)).toEqual(['fetch the build log', 'turn 2: what next?']);
  });

  it('a compaction that leaves the context over the threshold says so, and is tried again only once the kept turns have moved on', async () => {
    const server = await startServer(modelReply, { contextTokens: 40_000 });
    // A 4,000-token window compacts over 3,200; turns 1 to 3 are 500 tokens each, turn 4 alone is 3,500.
    const conversation = await (await agentOnServer(server.url, 4000)).open();
    const lines = systemLines(conversation);
    const summariesAfter: number[] = [];
    for (let n = 1; n <= 8; n++) {
      expect((await conversation.runTurn(n === 4 ? longTurn(n, 14_000) : longTurn(n, 2000))).text).toBe(`noted ${n}`);
      summariesAfter.push(server.requests.filter(isSummaryRequest).length);
    }
    // Tried at turn 4 (still over), not at 5 or 6, and again at 7, when turn 4 is no longer kept
    // (four turns to summarise, too many for one request: two parts).
    expect(summariesAfter).toEqual([0, 0, 0, 1, 1, 1, 3, 3]);
    expect(lines.filter((line) => line.includes('compacted on its own again'))).toEqual([
      'the context is still over 3.2k tokens after compacting; it is compacted on its own again after 3 more turns; type /compact with less to keep or /clear to start afresh',
    ]);
    expect(lines.filter((line) => line.startsWith('context compacted'))).toHaveLength(2);
    expect(conversation.contextReading().used).toBeLessThan(3200);
  });

  it('the wait holds across processes: each turn on a freshly opened session (as --print --session) does not try again at once', async () => {
    const server = await startServer(modelReply, { contextTokens: 40_000 });
    const agent = await agentOnServer(server.url, 4000);
    let sessionId: string | undefined;
    const summariesAfter: number[] = [];
    for (let n = 1; n <= 8; n++) {
      const conversation = await agent.open(sessionId);
      sessionId = conversation.session.id;
      expect((await conversation.runTurn(n === 4 ? longTurn(n, 14_000) : longTurn(n, 2000))).text).toBe(`noted ${n}`);
      summariesAfter.push(server.requests.filter(isSummaryRequest).length);
    }
    expect(summariesAfter).toEqual([0, 0, 0, 1, 1, 1, 3, 3]);
  });

  it('a summary no shorter than what it replaces is refused and said, and not asked for again at every turn', async () => {
    const server = await startServer(
      // A model that writes more than it was given to summarise.
      (request) => (isSummaryRequest(request) ? { text: `## What the person wants\n${lastText(request).repeat(2)}` } : modelReply(request)),
      { contextTokens: 40_000 },
    );
    const conversation = await (await agentOnServer(server.url, 6000)).open();
    const lines = systemLines(conversation);
    const tried: number[] = [];
    for (let n = 1; n <= 14; n++) {
      const before = server.requests.filter(isSummaryRequest).length;
      expect((await conversation.runTurn(longTurn(n, 2400))).text).toBe(`noted ${n}`);
      if (server.requests.filter(isSummaryRequest).length > before) tried.push(n);
    }
    expect(conversation.session.entries().entries.some((entry) => entry.kind === 'compaction')).toBe(false);
    expect(tried.length).toBeGreaterThanOrEqual(2);
    // Three turns apart: the two kept and the latest must all be new before the next try.
    expect(tried.slice(1).map((turn, index) => turn - tried[index])).toEqual(tried.slice(1).map(() => 3));
    const refusals = lines.filter((line) => line.startsWith('the conversation was not compacted'));
    expect(refusals).toHaveLength(tried.length);
    expect(refusals[0]).toMatch(
      /^the conversation was not compacted: the summary \(\d+ tokens with the kept turns\) is no shorter than what it would replace$/,
    );
  });
});
