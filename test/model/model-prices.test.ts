import { describe, expect, it } from 'vitest';
import { costOf, costText, priceOf, tablePrice } from '../../src/model/model-prices.js';
import { resolveModelSpec } from '../../src/model/model-spec.js';
import type { LoadedAgent } from '../../src/agent/types.js';

describe('model prices', () => {
  it('finds a model by its name, or its name with a date or -latest after it, and nothing else', () => {
    expect(tablePrice('anthropic', 'claude-sonnet-4-5')).toEqual({ input: 3, output: 15 });
    expect(tablePrice('anthropic', 'claude-sonnet-4-5-20250929')).toEqual({ input: 3, output: 15 });
    expect(tablePrice('anthropic', 'claude-opus-4-1-20250805')).toEqual({ input: 15, output: 75 });
    expect(tablePrice('openai', 'gpt-4o-2024-08-06')).toEqual({ input: 2.5, output: 10 });
    expect(tablePrice('openai', 'gpt-4o-mini')).toEqual({ input: 0.15, output: 0.6 });
    expect(tablePrice('openai', 'gpt-4o-realtime')).toBeUndefined();
    expect(tablePrice('openrouter', 'anthropic/claude-sonnet-4.5')).toEqual({ input: 3, output: 15 });
    expect(tablePrice('ollama', 'llama3.2:1b')).toBeUndefined();
    expect(tablePrice('scripted', 'demo')).toBeUndefined();
  });

  it('engine.pricing wins over the table; the cost is tokens times the price per million', () => {
    expect(priceOf({ provider: 'openai', model: 'gpt-4o', pricing: { input: 1, output: 2 } })).toEqual({ input: 1, output: 2 });
    expect(costOf({ inputTokens: 1_000_000, outputTokens: 500_000 }, { input: 3, output: 15 })).toBe(10.5);
    expect(costText(0.000138)).toBe('$0.0001');
    expect(costText(0.0123)).toBe('$0.0123');
    expect(costText(12.345)).toBe('$12.35');
  });

  it("engine.pricing goes with agent.yaml's own model only, not one chosen by --model", () => {
    const agent = {
      dir: '/tmp/agent',
      env: {},
      engine: { provider: 'openai-compatible', model: 'local', baseURL: 'http://127.0.0.1:9/v1', pricing: { input: 0.5, output: 1 } },
    } as unknown as LoadedAgent;
    expect(resolveModelSpec(agent, {}, {}).pricing).toEqual({ input: 0.5, output: 1 });
    expect(resolveModelSpec(agent, { model: 'openai-compatible:local' }, {}).pricing).toEqual({ input: 0.5, output: 1 });
    expect(resolveModelSpec(agent, { model: 'openai-compatible:other' }, {}).pricing).toBeUndefined();
  });
});
