import chalk from 'chalk';
import { wrapLine } from '../fit-text.js';

/**
 * Rows of styled text, the way Ink's output ends up on the terminal: each character with the
 * styles of the <Text> elements around it. Used to print finished transcript items as text
 * without laying them out through Ink (print/item-rows.ts says why).
 */

/** A style of Ink's <Text> (`bold`, `dim`, ...) or a foreground colour name (`cyan`). */
export type StyleName = string;

/** Characters in one style; the style names in the order their escape codes are written. */
export interface Span {
  text: string;
  style: readonly StyleName[];
}

export type Row = Span[];

export interface TextLook {
  color?: string;
  dimColor?: boolean;
  bold?: boolean;
  italic?: boolean;
  underline?: boolean;
  strikethrough?: boolean;
}

/** Styles whose escape codes end the same way replace one another; bold and dim both end with 22 but coexist. */
function endGroup(name: StyleName): string {
  if (name === 'bold' || name === 'dim') return name;
  if (name === 'italic' || name === 'underline' || name === 'strikethrough') return name;
  return 'colour';
}

/** `style` with `name` added inside it, as a nested <Text> adds its style to its parent's. */
export function addStyle(style: readonly StyleName[], name: StyleName): StyleName[] {
  const group = endGroup(name);
  if (group === 'bold' || group === 'dim') return style.includes(name) ? [...style] : [...style, name];
  return [...style.filter((existing) => endGroup(existing) !== group), name];
}

export function nestStyle(outer: readonly StyleName[], inner: readonly StyleName[]): StyleName[] {
  return inner.reduce<StyleName[]>((style, name) => addStyle(style, name), [...outer]);
}

/**
 * The styles of a <Text> with these props. Ink applies dim, colour, bold, italic, underline and
 * strikethrough in that order, each around the last, so the last one's code comes first.
 */
export function lookStyle(look: TextLook): StyleName[] {
  const names: StyleName[] = [];
  if (look.strikethrough) names.push('strikethrough');
  if (look.underline) names.push('underline');
  if (look.italic) names.push('italic');
  if (look.bold) names.push('bold');
  if (look.color) names.push(look.color);
  if (look.dimColor) names.push('dim');
  return names;
}

type Stylers = Record<string, ((text: string) => string) | undefined>;

/** Whether Ink would draw `color` as a named colour (the palette names only those). */
export function isNamedColour(color: string | undefined): boolean {
  return color === undefined || typeof (chalk as unknown as Stylers)[color] === 'function';
}

const codeCache = new Map<string, { open: string; close: string }>();

/** The escape codes chalk (Ink's colouring) writes for `name` at its current colour level. */
function codesOf(name: StyleName): { open: string; close: string } {
  const key = `${chalk.level}:${name}`;
  let codes = codeCache.get(key);
  if (!codes) {
    const styled = (chalk as unknown as Stylers)[name]?.('\u0000') ?? '\u0000';
    const [open, close] = styled.split('\u0000');
    codes = { open, close };
    codeCache.set(key, codes);
  }
  return codes;
}

/** One row as the terminal gets it; trailing unstyled blanks are left off, as Ink leaves them off. */
export function rowText(row: Row): string {
  let text = '';
  for (const span of row) {
    if (span.style.length === 0 || chalk.level === 0) {
      text += span.text;
      continue;
    }
    const codes = span.style.map(codesOf);
    text += codes.map((code) => code.open).join('') + span.text + codes.map((code) => code.close).reverse().join('');
  }
  return text.trimEnd();
}

/**
 * Characters that take exactly one column, are never a terminal control, and that Ink's width
 * measure (string-width) counts as one: printable ASCII, Latin letters with accents, the common
 * punctuation (dashes, quotes, …), arrows, maths and box-drawing signs, and the transcript's
 * own glyphs. Anything else (wide, emoji, combining marks, tabs) is drawn by Ink itself.
 */
const ONE_COLUMN = /^[\x20-\x7e\n\u00a0-\u00ac\u00ae-\u017f\u2010-\u2027\u2030-\u205e\u20a0-\u20c0\u2190-\u21ff\u2200-\u22ff\u2500-\u257f\u25cf\u2610\u2611\u2713\u2717]*$/;

export function isOneColumnText(text: string): boolean {
  return ONE_COLUMN.test(text);
}

/** A run of spans as rows of at most `width` columns, wrapped as Ink wraps a <Text>; undefined when not all one-column text. */
export function wrapSpans(spans: readonly Span[], width: number): Row[] | undefined {
  const plain = spans.map((span) => span.text).join('');
  if (width < 1 || !isOneColumnText(plain)) return undefined;
  // An empty <Text> takes no row at all.
  if (plain === '') return [];
  const lines = plain.split('\n');
  const wrapped = lines.some((line) => line.length > width) ? lines.map((line) => (line.length > width ? wrapLine(line, width) : line)).join('\n') : plain;
  // The wrapped text is the plain text with line breaks put in; walk both to cut the spans.
  const rows: Row[] = [];
  let spanIndex = 0;
  let offset = 0;
  let at = 0;
  const take = (length: number): Row => {
    const row: Row = [];
    while (length > 0) {
      const span = spans[spanIndex];
      const piece = span.text.slice(offset, offset + length);
      if (piece.length > 0) row.push({ text: piece, style: span.style });
      offset += piece.length;
      length -= piece.length;
      at += piece.length;
      if (offset >= span.text.length) {
        spanIndex++;
        offset = 0;
      }
    }
    return row;
  };
  const skipNewline = () => {
    while (spanIndex < spans.length && offset >= spans[spanIndex].text.length) {
      spanIndex++;
      offset = 0;
    }
    offset++;
    at++;
  };
  for (const line of wrapped.split('\n')) {
    rows.push(take(line.length));
    // A break that was in the text (not one wrapping put in) is passed over in the spans.
    if (plain[at] === '\n') skipNewline();
  }
  return rows;
}

/** Rows laid out beside a left column `leftWidth` wide (a gutter, a list marker): as tall as the taller. */
export function beside(left: readonly Row[], leftWidth: number, right: readonly Row[]): Row[] {
  const height = Math.max(left.length, right.length);
  const rows: Row[] = [];
  for (let index = 0; index < height; index++) {
    const row = [...(left[index] ?? [])];
    const used = row.reduce((columns, span) => columns + span.text.length, 0);
    if (used < leftWidth) row.push({ text: ' '.repeat(leftWidth - used), style: [] });
    rows.push([...row, ...(right[index] ?? [])]);
  }
  return rows;
}

/** Rows pushed right by `columns` blank columns (Ink's paddingLeft). */
export function indent(rows: readonly Row[], columns: number): Row[] {
  return rows.map((row) => [{ text: ' '.repeat(columns), style: [] }, ...row]);
}

export const EMPTY_ROW: Row = [];
