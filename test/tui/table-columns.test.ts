import { describe, expect, it } from 'vitest';
import { columnWidths } from '../../src/hosts/tui/markdown/table-columns.js';
import { markdownRows } from '../../src/hosts/tui/markdown/markdown-rows.js';
import { COLOUR_PALETTE } from '../../src/hosts/tui/palette.js';
import { rowWidth } from '../../src/hosts/tui/transcript-rows/row-layout.js';
import { rowPlain } from '../../src/hosts/tui/transcript-rows/styled-text.js';

const column = (widest: number, longestWord: number) => ({ widest, longestWord });

describe('the widths of a table’s columns', () => {
  it('keeps every column as wide as its widest cell when the table fits', () => {
    expect(columnWidths([column(5, 5), column(30, 8)], 35)).toEqual([5, 30]);
    expect(columnWidths([column(5, 5), column(30, 8)], 80)).toEqual([5, 30]);
  });

  it('shrinks the widest column first, leaving the narrow ones whole', () => {
    expect(columnWidths([column(6, 6), column(8, 8), column(60, 9)], 40)).toEqual([6, 8, 26]);
  });

  it('brings the widest columns down to the same width before shrinking the next', () => {
    expect(columnWidths([column(10, 3), column(40, 5), column(30, 5)], 50)).toEqual([10, 20, 20]);
    // A column left over goes to the leftmost of the shrunk ones.
    expect(columnWidths([column(10, 3), column(40, 5), column(30, 5)], 51)).toEqual([10, 21, 20]);
  });

  it('shrinks no column below its longest word while the words fit', () => {
    // Shrinking the widest alone to 10 would cut its 14-column word; the other gives way instead.
    expect(columnWidths([column(30, 14), column(20, 4)], 24)).toEqual([14, 10]);
  });

  it('cuts words only when the longest words alone do not fit, the longest first', () => {
    expect(columnWidths([column(20, 20), column(12, 12), column(6, 6)], 30)).toEqual([12, 12, 6]);
    expect(columnWidths([column(20, 20), column(12, 12), column(6, 6)], 20)).toEqual([7, 7, 6]);
  });

  it('uses the whole room it is given and never more, whenever the floors fit', () => {
    for (let seed = 1; seed <= 500; seed++) {
      const count = 1 + (seed % 5);
      const columns = Array.from({ length: count }, (_, index) => {
        const widest = 1 + ((seed * (index + 3) * 7919) % 70);
        return column(widest, 1 + ((seed * (index + 1) * 104729) % widest));
      });
      const room = 2 * count + ((seed * 31) % 120);
      const widths = columnWidths(columns, room);
      const total = widths.reduce((sum, width) => sum + width, 0);
      const natural = columns.reduce((sum, { widest }) => sum + widest, 0);
      expect(total, JSON.stringify({ columns, room })).toBe(Math.min(room, natural));
      widths.forEach((width, index) => {
        expect(width).toBeLessThanOrEqual(columns[index].widest);
        if (columns.reduce((sum, { longestWord }) => sum + longestWord, 0) <= room) expect(width).toBeGreaterThanOrEqual(columns[index].longestWord);
      });
    }
  });
});

describe('a table wider than the screen', () => {
  const TABLE = [
    '| service | status | note |',
    '|---|---|---|',
    '| api-west | healthy | Serving all traffic in the west region since the canary was promoted this morning |',
    '| api-east | degraded | Error rate above the budget after the last deploy; rollback is being prepared |',
  ].join('\n');

  it('wraps the long column at words and keeps short words whole, its borders in line', () => {
    const rows = markdownRows(TABLE, 58, COLOUR_PALETTE);
    const lines = rows.map(rowPlain);
    for (const row of rows) expect(rowWidth(row)).toBeLessThanOrEqual(58);
    // Every row's borders stand in the same columns as the header's.
    const borders = (line: string) => [...line].flatMap((char, index) => (char === '│' || char === '┼' ? [index] : []));
    for (const line of lines) expect(borders(line), line).toEqual(borders(lines[0]));
    const cells = lines.filter((line) => line.includes('│')).map((line) => line.split('│').map((cell) => cell.trim()));
    expect(cells.map((cell) => cell[0]).filter(Boolean)).toEqual(['service', 'api-west', 'api-east']);
    expect(cells.map((cell) => cell[1]).filter(Boolean)).toEqual(['status', 'healthy', 'degraded']);
    const note = cells.map((cell) => cell[2]).filter(Boolean);
    expect(note.join(' ')).toBe(
      'note Serving all traffic in the west region since the canary was promoted this morning Error rate above the budget after the last deploy; rollback is being prepared',
    );
  });
});
