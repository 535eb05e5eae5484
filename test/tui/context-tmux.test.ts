import { describe, expect, it } from 'vitest';
import { makeAgentFolder } from '../helpers/agent-fixture.js';
import { auggyTerminals, sendLine } from '../helpers/auggy-terminal.js';
import { chatServersPerTest, type ChatReply, type ReceivedRequest } from '../helpers/chat-server.js';
import { tmuxAvailable } from '../helpers/tmux.js';
import { isSummaryRequest, modelReply } from '../context/compaction-helpers.js';

// Servers first: after-each hooks run last-registered first, so the chats end before their servers close.
const startServer = chatServersPerTest();
const terminals = auggyTerminals();

function lastText(request: ReceivedRequest): string {
  const last = request.body.messages.at(-1);
  return typeof last?.content === 'string' ? last.content : '';
}

/** Short messages, long answers: the context grows by the replies, as it does in a real chat. */
function chattyModel(request: ReceivedRequest): ChatReply {
  const turn = /^turn (\d+)/.exec(lastText(request))?.[1];
  if (isSummaryRequest(request) || turn === undefined) return modelReply(request);
  return { text: `noted ${turn}. ${'The rollout plan has many steps to go through. '.repeat(25).trim()}` };
}

/** The `ctx N% of 6k` the status line shows now, as a number. */
function ctxPercent(screen: string): number | undefined {
  const match = /ctx (\d+)% of 6k/.exec(screen);
  return match ? Number(match[1]) : undefined;
}

describe.skipIf(!tmuxAvailable())('the context meter and /compact in a real terminal', { timeout: 180_000 }, () => {
  it('the status line shows ctx N% of the window; /compact <what to keep> says what it compacted, and the kept fact is still known', async () => {
    const server = await startServer(chattyModel, { contextTokens: 6000 });
    const dir = makeAgentFolder({
      engine: `engine:\n  provider: openai-compatible\n  model: test\n  baseURL: ${server.url}\n  maxTokens: 200\n  maxContextTokens: 6000\n`,
    });
    const t = await terminals.run(dir);
    await sendLine(t, 'turn 1: remember that the secret code is AZ-4471.');
    const first = ctxPercent(await t.waitForText(/ctx \d+% of 6k/));
    for (const n of [2, 3]) {
      await sendLine(t, `turn ${n}: more notes`);
      await t.waitForText(`noted ${n}.`);
    }
    const grown = await t.waitForScreen((screen) => (ctxPercent(screen) ?? 0) > (first ?? 0), 'the meter rising');
    const before = ctxPercent(grown) ?? 0;

    await sendLine(t, '/compact the secret code');
    const compacted = await t.waitForText(/context compacted \(\d+ earlier messages? summarised\)/, { joined: true });
    // The line wraps at the terminal's width: read it as one.
    expect(compacted.replace(/\s+/g, ' ')).toMatch(
      /context compacted \(2 earlier messages summarised\): [\d.k]+ → [\d.k]+ tokens of 6k; the full history stays in the session log/,
    );
    const summary = server.requests.find(isSummaryRequest);
    expect(lastText(summary!)).toContain('The person asks that the summary keep: the secret code');

    await sendLine(t, 'What is the secret code?');
    const answered = await t.waitForText('The secret code is AZ-4471.');
    // The question's request went out compacted: the summary in turn 1's place.
    const asked = server.requests.at(-1);
    expect(String(asked?.body.messages.find((message) => message.role === 'user')?.content)).toMatch(/^\[The earlier conversation, summarised/);
    expect(ctxPercent(answered)).toBeLessThan(before + 5);
  });
});
