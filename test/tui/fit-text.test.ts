import { describe, expect, it } from 'vitest';
import wrapAnsi from 'wrap-ansi';
import { wrapPlainText } from '../../src/hosts/tui/fit-text.js';

/** A random mix of short and long words, runs of spaces and newlines. */
function randomText(seed: number): string {
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  const parts: string[] = [];
  const count = 1 + Math.floor(next() * 40);
  for (let i = 0; i < count; i++) {
    const roll = next();
    if (roll < 0.08) parts.push('\n');
    else if (roll < 0.2) parts.push(' '.repeat(1 + Math.floor(next() * 4)));
    else parts.push('abcdefghij-.,'.repeat(8).slice(0, 1 + Math.floor(next() * (roll > 0.95 ? 90 : 12))), ' ');
  }
  return parts.join('');
}

describe('wrapping plain text for the transcript', () => {
  it('wraps exactly as Ink does (wrap-ansi, hard, no trim) for any mix of words, spaces and long words', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const text = randomText(seed);
      for (const columns of [1, 7, 20, 38, 98]) {
        expect(wrapPlainText(text, columns), `seed ${seed}, ${columns} columns`).toBe(wrapAnsi(text, columns, { hard: true, trim: false }));
      }
    }
  });

  it('leaves anything but printable ASCII for Ink to wrap', () => {
    const wide = 'Deploy 服务 now '.repeat(10);
    expect(wrapPlainText(wide, 20)).toBe(wide);
    const coloured = '\u001b[1mbold\u001b[22m '.repeat(10);
    expect(wrapPlainText(coloured, 20)).toBe(coloured);
    expect(wrapPlainText('tab\there '.repeat(10), 20)).toBe('tab\there '.repeat(10));
  });

  it('keeps lines that already fit as they are', () => {
    expect(wrapPlainText('short line\nanother', 40)).toBe('short line\nanother');
  });
});
