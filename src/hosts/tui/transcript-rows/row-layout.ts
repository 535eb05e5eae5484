import stringWidth from 'string-width';
import { graphemeClusters } from '../graphemes.js';
import { EMPTY_ROW, PLAIN, cleanText, type Look, type Row, type Span } from './styled-text.js';

/**
 * Characters that take one column each, one UTF-16 unit each, and that string-width measures as
 * one: printable ASCII, Latin letters with accents, the common punctuation (dashes, quotes, …),
 * arrows, maths and box-drawing signs, and the transcript's own glyphs. Text of these alone is
 * measured by its length: string-width's Unicode segmentation was most of laying out a long
 * transcript (profiled).
 */
const ONE_COLUMN =
  /^[\x20-\x7e\u00a0-\u00ac\u00ae-\u017f\u2010-\u2027\u2030-\u205e\u20a0-\u20c0\u2190-\u21ff\u2200-\u22ff\u2500-\u257f\u25cf\u2610\u2611\u2713\u2717]*$/;

/** Columns the text takes on a terminal: wide characters two, emoji sequences as drawn, marks none. */
export function textWidth(text: string): number {
  return ONE_COLUMN.test(text) ? text.length : stringWidth(text);
}

export function rowWidth(row: Row): number {
  let width = 0;
  for (const span of row) width += textWidth(span.text);
  return width;
}

/** Each character of `word` and the columns it takes. */
function characters(word: string): { text: string; width: number }[] {
  if (ONE_COLUMN.test(word)) return Array.from(word, (char) => ({ text: char, width: 1 }));
  return graphemeClusters(word).map((cluster) => ({ text: cluster, width: stringWidth(cluster) }));
}

/**
 * Where a line breaks to fit `width` columns, as [start, end) offsets into it: between words,
 * the spaces at a break left out, so no row starts with the space that ended the row above; a
 * word longer than a row is cut between its characters. Spaces ending the line that do not fit
 * open no row of their own: a reply streamed up to a word's trailing space keeps its height.
 */
export function breakLine(line: string, width: number): [number, number][] {
  const rows: [number, number][] = [];
  let start = 0;
  let end = 0;
  let used = 0;
  for (const match of line.matchAll(/ +|[^ ]+/g)) {
    const piece = match[0];
    const at = match.index;
    const columns = textWidth(piece);
    if (piece.startsWith(' ')) {
      if (used + columns <= width) used += columns;
      else if (at + piece.length < line.length) {
        rows.push([start, end]);
        start = end = at + piece.length;
        used = 0;
      }
      continue;
    }
    if (used + columns <= width) {
      used += columns;
      end = at + piece.length;
      continue;
    }
    if (columns <= width && end > start) {
      rows.push([start, end]);
      start = at;
      used = columns;
      end = at + piece.length;
      continue;
    }
    // Too long for any row: it starts where it is and is cut where each row is full.
    let offset = at;
    if (end === start) {
      start = at;
      used = 0;
    }
    for (const char of characters(piece)) {
      if (used + char.width > width && offset > start) {
        rows.push([start, end]);
        start = offset;
        used = 0;
      }
      used += char.width;
      offset += char.text.length;
      end = offset;
    }
  }
  rows.push([start, Math.max(start, end)]);
  return rows;
}

/** The spans' characters from `start` to `end`, each in its span's look. */
function sliceSpans(spans: readonly Span[], start: number, end: number): Row {
  const row: Span[] = [];
  let at = 0;
  for (const span of spans) {
    const next = at + span.text.length;
    if (next > start && at < end) row.push({ text: span.text.slice(Math.max(0, start - at), Math.min(span.text.length, end - at)), look: span.look });
    at = next;
    if (at >= end) break;
  }
  return row;
}

function wrapLine(spans: readonly Span[], width: number): Row[] {
  const line = spans.map((span) => span.text).join('');
  if (textWidth(line) <= width) return [spans];
  return breakLine(line, Math.max(1, width)).map(([start, end]) => sliceSpans(spans, start, end));
}

/** Spans laid out in rows of at most `width` columns: a row per line, long lines wrapped at words. No rows for no text. */
export function wrapSpans(spans: readonly Span[], width: number): Row[] {
  if (spans.every((span) => span.text === '')) return [];
  const rows: Row[] = [];
  let line: Span[] = [];
  for (const span of spans) {
    const parts = span.text.split('\n');
    parts.forEach((part, index) => {
      if (index > 0) {
        rows.push(...wrapLine(line, width));
        line = [];
      }
      if (part !== '') line.push(parts.length === 1 ? span : { text: part, look: span.look });
    });
  }
  rows.push(...wrapLine(line, width));
  return rows;
}

/** Text in one look, wrapped. */
export function wrapText(text: string, look: Look, width: number): Row[] {
  return wrapSpans([{ text: cleanText(text), look }], width);
}

/** The row cut to `width` columns, an ellipsis where it was cut. */
export function truncateRow(row: Row, width: number): Row {
  if (rowWidth(row) <= width) return row;
  const kept: Span[] = [];
  let used = 0;
  for (const span of row) {
    let text = '';
    for (const char of characters(span.text)) {
      if (used + char.width > width - 1) {
        if (text !== '') kept.push({ text, look: span.look });
        kept.push({ text: '…', look: span.look });
        return kept;
      }
      text += char.text;
      used += char.width;
    }
    kept.push(span);
  }
  return kept;
}

/** Rows beside a left column `leftWidth` wide (a gutter, a list marker): as tall as the taller. */
export function beside(left: readonly Row[], leftWidth: number, right: readonly Row[]): Row[] {
  const height = Math.max(left.length, right.length);
  const rows: Row[] = [];
  for (let index = 0; index < height; index++) {
    rows.push([...padRow(left[index] ?? EMPTY_ROW, leftWidth, 'left'), ...(right[index] ?? EMPTY_ROW)]);
  }
  return rows;
}

/** Rows pushed right by `columns` blank columns. */
export function indent(rows: readonly Row[], columns: number): Row[] {
  const pad: Span = { text: ' '.repeat(columns), look: PLAIN };
  return rows.map((row) => [pad, ...row]);
}

/** The row filled with blanks to `width` columns, its text at the left, right or centre. */
export function padRow(row: Row, width: number, align: 'left' | 'right' | 'center'): Row {
  const room = width - rowWidth(row);
  if (room <= 0) return row;
  const before = align === 'right' ? room : align === 'center' ? Math.floor(room / 2) : 0;
  const blank = (columns: number): Span[] => (columns > 0 ? [{ text: ' '.repeat(columns), look: PLAIN }] : []);
  return [...blank(before), ...row, ...blank(room - before)];
}
