import chalk, { type ChalkInstance } from 'chalk';
import { createRequire } from 'node:module';

// Node's own module rather than an ES module import, which would build node:util's whole
// namespace and load fifteen more of Node's modules before the first frame (agent/dot-env.ts).
const { stripVTControlCharacters } = createRequire(import.meta.url)('node:util') as typeof import('node:util');

/**
 * Styled text, the one form the transcript is laid out in: markdown and every other item become
 * rows of styled spans here, and the same rows are drawn in Ink's live frame and printed above
 * it (transcript-item.tsx, transcript-text.ts), so what scrolls up is what was on screen.
 */

/** How a run of text looks: the styles of a terminal (a colour is one of chalk's names). */
export interface Look {
  color?: string;
  bold?: boolean;
  dim?: boolean;
  italic?: boolean;
  underline?: boolean;
  strikethrough?: boolean;
}

/** Inline text as a tree: strings, and runs in a look of their own around their children. */
export type Styled = string | { look: Look; children: readonly Styled[] };

/** Characters in one look. */
export interface Span {
  text: string;
  look: Look;
}

/** One terminal row, at most as wide as it was laid out for. */
export type Row = readonly Span[];

export const PLAIN: Look = {};
export const EMPTY_ROW: Row = [];

/**
 * A look inside another: styles add up, the inner colour wins. Dim text inside bold is dim only:
 * one code ends both on a terminal, and Ink, which writes only the codes that change from one
 * character to the next, would leave the bold text after such a run plain on screen.
 */
export function nestLook(outer: Look, inner: Look): Look {
  if (outer === PLAIN) return inner;
  if (inner === PLAIN) return outer;
  const dim = inner.dim || outer.dim;
  return {
    color: inner.color ?? outer.color,
    bold: (inner.bold || outer.bold) && !dim,
    dim,
    italic: inner.italic || outer.italic,
    underline: inner.underline || outer.underline,
    strikethrough: inner.strikethrough || outer.strikethrough,
  };
}

// C0 controls but tab and newline, DEL, and C1's CSI: a reply must not move the cursor or restyle the screen.
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f\x9b]/g;
const NEEDS_CLEANING = /[\x00-\x09\x0b-\x1f\x7f\x9b]/;

/**
 * Text as it may reach the terminal: escape sequences and other controls removed (the rows'
 * own styles are the only ones written), tabs as four spaces (expandTabs).
 */
export function cleanText(text: string): string {
  if (!NEEDS_CLEANING.test(text)) return text;
  return expandTabs(stripVTControlCharacters(text).replace(CONTROLS, ''));
}

/**
 * A tab is drawn as four spaces. Ink measures a tab as no column at all while the terminal moves
 * to its next tab stop, so a reply indented with tabs (Go, Makefiles) ran past the screen's edge
 * and left copies of its rows behind. A fixed width keeps a streamed text's columns the same
 * however it is cut into deltas; for indentation it is the same as tab stops of four.
 */
export function expandTabs(text: string): string {
  return text.includes('\t') ? text.replaceAll('\t', '    ') : text;
}

/** The tree's text as spans, each in the looks around it. */
export function spansOf(nodes: readonly Styled[], outer: Look = PLAIN, into: Span[] = []): Span[] {
  for (const node of nodes) {
    if (typeof node === 'string') {
      if (node !== '') into.push({ text: cleanText(node), look: outer });
    } else spansOf(node.children, nestLook(outer, node.look), into);
  }
  return into;
}

/** The tree's text without its looks: what a table measures its columns by. */
export function plainText(nodes: readonly Styled[]): string {
  return nodes.map((node) => (typeof node === 'string' ? node : plainText(node.children))).join('');
}

function stylerOf(look: Look): ChalkInstance | undefined {
  let styler: ChalkInstance = chalk;
  let styled = false;
  const colour = look.color === undefined ? undefined : (chalk as unknown as Record<string, ChalkInstance | undefined>)[look.color];
  if (typeof colour === 'function') {
    styler = colour;
    styled = true;
  }
  for (const name of ['bold', 'dim', 'italic', 'underline', 'strikethrough'] as const) {
    if (look[name]) {
      styler = styler[name];
      styled = true;
    }
  }
  return styled ? styler : undefined;
}

/** The row as the terminal gets it: each span in its look (chalk, at the terminal's colour level), no trailing blanks. */
export function rowText(row: Row): string {
  let end = row.length;
  while (end > 0 && row[end - 1].text.trimEnd() === '') end--;
  let text = '';
  for (let index = 0; index < end; index++) {
    const span = row[index];
    const piece = index === end - 1 ? span.text.trimEnd() : span.text;
    const styler = stylerOf(span.look);
    text += styler ? styler(piece) : piece;
  }
  return text;
}

/** The row's characters without their looks. */
export function rowPlain(row: Row): string {
  return row.map((span) => span.text).join('');
}
