import { ansiCodesToString, diffAnsiCodes, styledCharsFromTokens, tokenize, type AnsiCode } from '@alcalzone/ansi-tokenize';
import chalk from 'chalk';
import wrapAnsi from 'wrap-ansi';
import { wrapLine } from '../fit-text.js';

/**
 * Rows of styled text, the way Ink's output ends up on the terminal: each character with the
 * styles of the <Text> elements around it. Used to print finished transcript items as text
 * without laying them out through Ink (print/item-rows.ts says why).
 */

/** A style of Ink's <Text> (`bold`, `dim`, ...) or a foreground colour name (`cyan`). */
export type StyleName = string;

/**
 * Characters in one style; the style names in the order their escape codes are written, or the
 * codes themselves where they were read back from text Ink's way.
 */
export interface Span {
  text: string;
  style: readonly StyleName[];
  codes?: readonly AnsiCode[];
}

/** Text as nested <Text>s hold it: strings, and runs in a look of their own (style names, outermost first). */
export type Styled = string | { style: readonly StyleName[]; children: readonly Styled[] };

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

const codeCache = new Map<string, AnsiCode | undefined>();

/** The escape code chalk (Ink's colouring) writes for `name` at its current colour level. */
function codeOf(name: StyleName): AnsiCode | undefined {
  const key = `${chalk.level}:${name}`;
  if (!codeCache.has(key)) {
    const styled = (chalk as unknown as Stylers)[name]?.('\u0000') ?? '\u0000';
    const [code, endCode] = styled.split('\u0000');
    codeCache.set(key, code === '' ? undefined : { type: 'ansi', code, endCode });
  }
  return codeCache.get(key);
}

// Spans of one <Text> share its style array; its codes are worked out once per colour level.
const codesByStyle = new WeakMap<readonly StyleName[], { level: number; codes: readonly AnsiCode[] }>();

function codesOf(span: Span): readonly AnsiCode[] {
  if (span.codes) return span.codes;
  const known = codesByStyle.get(span.style);
  if (known && known.level === chalk.level) return known.codes;
  const codes = span.style.flatMap((name) => codeOf(name) ?? []);
  codesByStyle.set(span.style, { level: chalk.level, codes });
  return codes;
}

const NO_CODES: readonly AnsiCode[] = [];
const transitions = new Map<string, string>();

/** The codes that take the terminal from one character's styles to the next's, as ansi-tokenize writes them. */
function transition(from: readonly AnsiCode[], to: readonly AnsiCode[]): string {
  if (from.length === 0 && to.length === 0) return '';
  const key = `${from.map((code) => code.code).join('')}\u0000${to.map((code) => code.code).join('')}`;
  let codes = transitions.get(key);
  if (codes === undefined) {
    codes = ansiCodesToString(diffAnsiCodes([...from], [...to]));
    transitions.set(key, codes);
  }
  return codes;
}

/**
 * One row as the terminal gets it, written the way Ink writes a row of its output: from one
 * character's codes to the next only what differs (ansi-tokenize), all closed at the end, and
 * trailing blanks left off. Ink's way, not the shortest: when bold and dim share a row their
 * common closing code can end both, and it does so on the screen too.
 */
export function rowText(row: Row): string {
  let text = '';
  let previous = NO_CODES;
  for (const span of row) {
    if (span.text === '') continue;
    const codes = codesOf(span);
    text += transition(previous, codes) + span.text;
    previous = codes;
  }
  return (text + transition(previous, NO_CODES)).trimEnd();
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

function spansOf(nodes: readonly Styled[], outer: readonly StyleName[], into: Span[]): Span[] {
  for (const node of nodes) {
    if (typeof node === 'string') {
      if (node !== '') into.push({ text: node, style: outer });
    } else spansOf(node.children, nestStyle(outer, node.style), into);
  }
  return into;
}

function hasStyle(nodes: readonly Styled[]): boolean {
  return nodes.some((node) => typeof node !== 'string' && (node.style.length > 0 || hasStyle(node.children)));
}


/** `text` in `style` the way chalk (Ink's colouring) writes it: innermost style first, each around the last. */
function applyStyle(text: string, style: readonly StyleName[]): string {
  let styled = text;
  for (const name of [...style].reverse()) styled = (chalk as unknown as Stylers)[name]?.(styled) ?? styled;
  return styled;
}

/** The text Ink's nested <Text>s make of `nodes`, each look applied around its children. */
function ansiOf(nodes: readonly Styled[]): string {
  return nodes.map((node) => (typeof node === 'string' ? node : applyStyle(ansiOf(node.children), node.style))).join('');
}

/**
 * Text with styles inside it that must wrap. Ink wraps the inner text with wrap-ansi, which
 * carries only the last escape code over each break it makes (after a bold word inside italics
 * the next row is not italic), then styles each row in the outer <Text>'s look; the rows are
 * made here exactly that way.
 */
function wrapStyledRows(nodes: readonly Styled[], width: number, outer: readonly StyleName[]): Row[] {
  return wrapAnsi(ansiOf(nodes), width, { hard: true, trim: false })
    .split('\n')
    .map((line) => {
      const row: Row = [];
      let key = '';
      for (const char of styledCharsFromTokens(tokenize(applyStyle(line, outer)))) {
        const charKey = char.styles.map((code) => code.code).join('');
        if (row.length > 0 && charKey === key) row[row.length - 1].text += char.value;
        else row.push({ text: char.value, style: [], codes: char.styles });
        key = charKey;
      }
      return row;
    });
}

/**
 * A <Text> in the look `outer` holding `nodes`, as rows of at most `width` columns, wrapped as
 * Ink wraps it; undefined when it is not all one-column text.
 */
export function wrapStyled(nodes: readonly Styled[], width: number, outer: readonly StyleName[] = []): Row[] | undefined {
  const spans = spansOf(nodes, outer, []);
  const plain = spans.map((span) => span.text).join('');
  if (width < 1 || !isOneColumnText(plain)) return undefined;
  // An empty <Text> takes no row at all.
  if (plain === '') return [];
  const lines = plain.split('\n');
  if (!lines.some((line) => line.length > width)) return cutRows(spans, plain, plain);
  if (chalk.level > 0 && hasStyle(nodes)) return wrapStyledRows(nodes, width, outer);
  return cutRows(spans, plain, lines.map((line) => (line.length > width ? wrapLine(line, width) : line)).join('\n'));
}

/** A <Text> of one look, or of runs in looks of their own side by side, as rows. */
export function wrapSpans(spans: readonly Span[], width: number): Row[] | undefined {
  if (spans.length === 1) return wrapStyled([spans[0].text], width, spans[0].style);
  return wrapStyled(
    spans.map((span) => ({ style: span.style, children: [span.text] })),
    width,
  );
}

/** The spans cut into the rows of `wrapped`, which is `plain` with line breaks put in. */
function cutRows(spans: readonly Span[], plain: string, wrapped: string): Row[] {
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
