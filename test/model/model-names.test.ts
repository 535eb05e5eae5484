import { describe, expect, it } from 'vitest';
import { knownContextWindow } from '../../src/agent/model-windows.js';
import { tablePrice } from '../../src/model/model-prices.js';

describe('the tables of known models read a model name one way', () => {
  it('a name with dashes for dots, or in capitals, finds its window as it finds its price', () => {
    for (const model of ['gpt-4.1-mini', 'gpt-4-1-mini', 'GPT-4.1-mini']) {
      expect(tablePrice('openai', model)).toEqual({ input: 0.4, output: 1.6 });
      expect(knownContextWindow('openai', model)).toBe(1_047_576);
    }
    expect(tablePrice('openrouter', 'anthropic/claude-sonnet-4.5')).toEqual({ input: 3, output: 15 });
    expect(knownContextWindow('openrouter', 'anthropic/claude-sonnet-4.5')).toBe(200_000);
    expect(knownContextWindow('openrouter', 'google/gemini-2.5-pro')).toBe(1_048_576);
  });

  it('a family is matched at a word boundary, so another model that merely starts alike gets no window', () => {
    expect(knownContextWindow('openai', 'gpt-4-1106-preview')).toBeUndefined();
    expect(knownContextWindow('openai', 'gpt-4o-mini')).toBe(128_000);
    expect(knownContextWindow('openai', 'o3')).toBe(200_000);
    expect(knownContextWindow('openai', 'gpt-5.1')).toBe(400_000);
    expect(knownContextWindow('anthropic', 'claude-haiku-4-5-20251001')).toBe(200_000);
    expect(knownContextWindow('openai-compatible', 'gpt-4o')).toBeUndefined();
  });
});
