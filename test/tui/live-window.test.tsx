import { describe, expect, it } from 'vitest';
import type { DisplayItem } from '../../src/hosts/tui/display-items.js';
import { fitLiveItems, screenBudget } from '../../src/hosts/tui/live-window.js';
import { ScreenWidthProvider } from '../../src/hosts/tui/screen-width.js';
import { TranscriptItem } from '../../src/hosts/tui/transcript-item.js';
import { renderToString } from 'ink';

const tool = (id: string): DisplayItem => ({ kind: 'tool', id, name: 'fetch', args: '{}', state: 'running' });

describe('fitting the live area on screen', () => {
  it('shows everything when it fits, or when the terminal height is unknown', () => {
    const items = [tool('a'), tool('b')];
    expect(fitLiveItems(items, { rows: 30, columns: 80, below: 10 })).toEqual({ items, hidden: 0 });
    const many = Array.from({ length: 100 }, (_, i) => tool(`t${i}`));
    expect(fitLiveItems(many, { columns: 80, below: 10 })).toEqual({ items: many, hidden: 0 });
  });

  it('keeps the newest items and counts the ones left out', () => {
    const many = Array.from({ length: 30 }, (_, i) => tool(`t${i}`));
    const fitted = fitLiveItems(many, { rows: 20, columns: 80, below: 10 });
    // Ten rows free, one of them for the "… more above" line.
    expect(fitted.items.map((item) => item.id)).toEqual(['t21', 't22', 't23', 't24', 't25', 't26', 't27', 't28', 't29']);
    expect(fitted.hidden).toBe(21);
  });

  it('keeps the opening fence when it cuts a code block still streaming, so the end still reads as code', () => {
    const code = Array.from({ length: 60 }, (_, i) => `line ${i}`).join('\n');
    const fitted = fitLiveItems([{ kind: 'assistant', id: 'm', text: `\`\`\`ts\n${code}`, continued: false }], { rows: 20, columns: 42, below: 10 });
    const [shown] = fitted.items;
    expect(shown.kind === 'assistant' && shown.text.startsWith('```ts\n…\n')).toBe(true);
    expect(shown.kind === 'assistant' && shown.text.endsWith('line 59')).toBe(true);
  });

  it('cuts a long streaming message to its end', () => {
    const text = `${'start '.repeat(50)}${'x'.repeat(1000)}the end`;
    const fitted = fitLiveItems([{ kind: 'assistant', id: 'm', text, continued: false }], { rows: 20, columns: 42, below: 10 });
    const [shown] = fitted.items;
    expect(shown.kind === 'assistant' && shown.text.startsWith('…') && shown.text.endsWith('the end')).toBe(true);
    expect(shown.kind === 'assistant' && shown.text.length).toBeLessThanOrEqual(1 + 9 * 40);
    expect(fitted.hidden).toBe(0);
  });

  it.each([
    ['a list of short lines', Array.from({ length: 100 }, (_, i) => `- item ${i}`).join('\n')],
    ['a code block', ['```go', ...Array.from({ length: 80 }, (_, i) => `    fmt.Println(${i})`)].join('\n')],
    ['paragraphs', Array.from({ length: 30 }, (_, i) => `Paragraph ${i} says a few words.`).join('\n\n')],
    ['wide characters', Array.from({ length: 40 }, () => '漢字のテキスト、とても長い行がここにあります。'.repeat(3)).join('\n')],
  ])('cuts %s to rows that Ink draws within the screen', (_, text) => {
    for (const [columns, rows] of [
      [40, 12],
      [60, 16],
      [80, 24],
      [80, 50],
    ]) {
      const below = 9;
      const fitted = fitLiveItems([{ kind: 'assistant', id: 'm', text, continued: false }], { rows, columns, below });
      const drawn = fitted.items.map((item) => renderToString(<TranscriptItem item={item} />, { columns }).split('\n').length);
      const total = drawn.reduce((sum, n) => sum + n, 0) + (fitted.hidden > 0 ? 1 : 0);
      expect(total, `${columns}x${rows}`).toBeLessThanOrEqual(rows - below);
      // On a tiny screen a code block's fence and "…" alone fill the room: then it waits to be printed.
      if (rows >= 16) expect(fitted.items.length, `${columns}x${rows}`).toBe(1);
    }
  });

  it('keeps a reply streamed frame by frame within the screen and filled, its newest words shown, as its blocks change', () => {
    const blocks = [
      ...Array.from({ length: 40 }, (_, i) => `- item ${i}`),
      '',
      ...Array.from({ length: 12 }, (_, i) => `Paragraph ${i} says rather more words than a list item does, so a row holds many more of them.`),
    ].join('\n');
    const [columns, rows, below] = [60, 24, 8];
    for (let end = 400; end <= blocks.length; end += 97) {
      const text = blocks.slice(0, end);
      const fitted = fitLiveItems([{ kind: 'assistant', id: 'streaming', text, continued: false }], { rows, columns, below });
      const [shown] = fitted.items;
      const drawn = renderToString(
        <ScreenWidthProvider columns={columns}>
          <TranscriptItem item={shown} />
        </ScreenWidthProvider>,
        { columns },
      ).split('\n').length;
      expect(drawn, `at ${end}`).toBeLessThanOrEqual(rows - below - 1);
      // Not stuck at the few rows a list's short lines took once prose follows.
      expect(drawn, `at ${end}`).toBeGreaterThanOrEqual((rows - below - 1) / 2);
      expect(shown.kind === 'assistant' && shown.text.trimEnd().endsWith(text.trimEnd().split(/\s+/).at(-1) ?? ''), `at ${end}`).toBe(true);
    }
  });

  it('gives the input at most about half the screen and leaves room below the live items', () => {
    expect(screenBudget(undefined, 'x', 0)).toEqual({ below: 0 });
    expect(screenBudget(40, 'one line', 0)).toEqual({ inputLines: 14, below: 6 + 1 + 2 });
    expect(screenBudget(40, 'a\n'.repeat(100), 3)).toEqual({ inputLines: 14, below: 6 + 14 + 2 + 4 });
  });
});
