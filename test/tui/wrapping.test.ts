import { describe, expect, it } from 'vitest';
import { cursorInRows, editedRows } from '../../src/hosts/tui/edited-rows.js';
import { rowWidth, wrapText } from '../../src/hosts/tui/transcript-rows/row-layout.js';
import { PLAIN, rowPlain } from '../../src/hosts/tui/transcript-rows/styled-text.js';

/** A small deterministic generator, so a failing case can be run again. */
function rng(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

/** Words of 1 to 12 letters, mostly one space apart, sometimes two, sometimes a space at the end. */
function randomLine(random: () => number): string {
  const words = Array.from({ length: 1 + Math.floor(random() * 30) }, () => 'x'.repeat(1 + Math.floor(random() * 12)));
  const line = words.map((word, index) => (index > 0 ? (random() < 0.1 ? '  ' : ' ') : '') + word).join('');
  return random() < 0.3 ? `${line} ` : line;
}

const wrapped = (text: string, width: number) => wrapText(text, PLAIN, width).map(rowPlain);

describe('wrapping a line at words', () => {
  it('starts the row after a full one with the next word, never with the space between', () => {
    expect(wrapped('abcd efgh ij', 4)).toEqual(['abcd', 'efgh', 'ij']);
    expect(wrapped('abc defg', 4)).toEqual(['abc', 'defg']);
    for (let seed = 1; seed <= 2000; seed++) {
      const random = rng(seed);
      const line = randomLine(random);
      const width = 4 + Math.floor(random() * 40);
      const rows = wrapText(line, PLAIN, width);
      for (const [index, row] of rows.entries()) {
        expect(rowWidth(row), `${JSON.stringify(line)} at ${width}`).toBeLessThanOrEqual(width);
        if (index > 0) expect(rowPlain(row).startsWith(' '), `${JSON.stringify(line)} at ${width}`).toBe(false);
      }
      // Every letter kept (a word longer than the row is cut between two of them).
      expect(rows.map(rowPlain).join('').replace(/ /g, '')).toBe(line.replace(/ /g, ''));
    }
  });

  it('opens no row for the space a streamed text ends with at the edge', () => {
    expect(wrapped('abcd ', 4)).toEqual(['abcd']);
    expect(wrapped('ab cd ', 5)).toEqual(['ab cd']);
  });
});

describe('the input wrapped at words', () => {
  const shown = (line: string, width: number) => editedRows(line, width).map(({ start, shownEnd }) => line.slice(start, shownEnd));

  it('fills a row to its last column but one with words, the break space in the last', () => {
    expect(shown('abc defg hi', 5)).toEqual(['abc ', 'defg ', 'hi']);
    expect(shown('abcd efg', 5)).toEqual(['abcd ', 'efg']);
  });

  it('holds every character in one row, the spaces of a break at the end of the row above', () => {
    for (let seed = 1; seed <= 2000; seed++) {
      const random = rng(seed);
      const line = randomLine(random);
      const width = 4 + Math.floor(random() * 40);
      const rows = editedRows(line, width);
      expect(rows[0].start).toBe(0);
      expect(rows.at(-1)!.end).toBe(line.length);
      for (const [index, row] of rows.entries()) {
        if (index > 0) expect(row.start, `${JSON.stringify(line)} at ${width}`).toBe(rows[index - 1].end);
        if (index > 0 && row.start < line.length) expect(line[row.start], `${JSON.stringify(line)} at ${width}`).not.toBe(' ');
        expect(line.slice(row.shownEnd, row.end).trim()).toBe('');
        expect(row.shownEnd - row.start, `${JSON.stringify(line)} at ${width}`).toBeLessThanOrEqual(width);
      }
    }
  });

  it('draws the cursor on the row it is in, and on a new row after spaces typed to the edge', () => {
    const rows = editedRows('abc defg hi', 5);
    expect(cursorInRows(rows, 3)).toEqual({ row: 0, at: 3 });
    expect(cursorInRows(rows, 4)).toEqual({ row: 1, at: 4 });
    expect(cursorInRows(rows, 11)).toEqual({ row: 2, at: 11 });
    const edge = editedRows('abcd ', 5);
    expect(edge.map(({ start, shownEnd }) => 'abcd '.slice(start, shownEnd))).toEqual(['abcd ', '']);
    expect(cursorInRows(edge, 5)).toEqual({ row: 1, at: 5 });
    // Two spaces at a break where one shows: the cursor on the hidden one is drawn on the shown one.
    const hidden = editedRows('abcd  ef', 5);
    expect(cursorInRows(hidden, 5)).toEqual({ row: 0, at: 4 });
    expect(cursorInRows(hidden, 6)).toEqual({ row: 1, at: 6 });
  });

  it('draws an empty line as one row with the cursor at its start', () => {
    expect(editedRows('', 10)).toEqual([{ start: 0, end: 0, shownEnd: 0 }]);
    expect(cursorInRows(editedRows('', 10), 0)).toEqual({ row: 0, at: 0 });
  });
});
