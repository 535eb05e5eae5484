import { describe, expect, it } from 'vitest';
import { chatServersPerTest } from '../helpers/chat-server.js';
import { makeAgentFolder } from '../helpers/agent-fixture.js';
import { auggy } from '../helpers/auggy-cli.js';

const startServer = chatServersPerTest();

/** A folder on the loopback server's model `test`, priced in agent.yaml. */
function pricedAgent(url: string, pricing = '  pricing:\n    input: 3\n    output: 15\n'): string {
  return makeAgentFolder({ engine: `engine:\n  provider: openai-compatible\n  model: test\n  baseURL: ${url}\n${pricing}` });
}

// The loopback server reports 11 prompt and 7 completion tokens for every reply.
const COST = (11 * 3 + 7 * 15) / 1_000_000;

describe('the cost of a run', () => {
  it('--output json carries the cost at engine.pricing, and auggy sessions --json the session total', async () => {
    const server = await startServer([{ text: 'One.' }, { text: 'Two.' }]);
    const dir = pricedAgent(server.url);
    const first = await auggy(['run', dir, '--print', 'hi', '--output', 'json']);
    expect(first.exitCode).toBe(0);
    const summary = JSON.parse(first.stdout) as { usage: unknown; cost?: number; turns: { cost?: number }[]; sessionId: string };
    expect(summary.usage).toEqual({ inputTokens: 11, outputTokens: 7 });
    expect(summary.cost).toBeCloseTo(COST, 12);
    expect(summary.turns[0].cost).toBeCloseTo(COST, 12);

    const second = await auggy(['run', dir, '--print', 'again', '--session', summary.sessionId, '--output', 'json']);
    expect(JSON.parse(second.stdout).cost).toBeCloseTo(COST, 12);
    const listed = await auggy(['sessions', dir, '--json']);
    const [session] = JSON.parse(listed.stdout) as { id: string; cost?: number }[];
    expect(session.id).toBe(summary.sessionId);
    expect(session.cost).toBeCloseTo(2 * COST, 12);
  });

  it('a model with no known price has tokens and no cost: engine.pricing is for the model agent.yaml names', async () => {
    const server = await startServer([{ text: 'Hello.' }]);
    const dir = pricedAgent(server.url);
    const result = await auggy(['run', dir, '--print', 'hi', '--output', 'json', '--model', 'openai-compatible:another']);
    expect(result.exitCode).toBe(0);
    const summary = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(summary.usage).toEqual({ inputTokens: 11, outputTokens: 7 });
    expect(summary).not.toHaveProperty('cost');
  });

  it('an engine.pricing that is not a number is refused with the field, its line and the fix', async () => {
    const dir = pricedAgent('http://127.0.0.1:9/v1', '  pricing:\n    input: cheap\n');
    const result = await auggy(['validate', dir]);
    expect(result.exitCode).not.toBe(0);
    expect(result.stdout + result.stderr).toMatch(/agent\.yaml:\d+.*engine\.pricing\.input: must be a number, not text \("cheap"\)/);
    expect(result.stdout + result.stderr).toMatch(/engine\.pricing\.output: is required; add output: <US dollars per million output tokens>/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
