import type { Token, Tokens } from 'marked';
import type { Palette } from '../palette.js';
import { beside, indent, padRow, textWidth, wrapSpans, wrapText } from '../transcript-rows/row-layout.js';
import { EMPTY_ROW, PLAIN, cleanText, plainText, spansOf, type Look, type Row, type Span, type Styled } from '../transcript-rows/styled-text.js';
import { highlightRuns } from './highlight-code.js';
import { inlineStyled } from './inline-styled.js';
import { lexMarkdown } from './markdown-blocks.js';
import { columnWidths, type ColumnMeasure } from './table-columns.js';

/**
 * A reply's markdown as rows for the terminal, `width` columns wide: headings without `#`,
 * emphasis without `**`, highlighted code blocks, lists, task items, quotes, tables and links.
 * Text still streaming reads the same: an unclosed fence is a code block until it closes.
 */
export function markdownRows(text: string, width: number, palette: Palette): Row[] {
  return blocks(lexMarkdown(text), Math.max(1, width), palette, true);
}

/** Blocks one under the other; `spaced` puts a blank row between them, as paragraphs read. */
function blocks(tokens: readonly Token[], width: number, palette: Palette, spaced: boolean): Row[] {
  // A task item's checkbox leads its text, which sits beside it.
  const checkbox = tokens.find((token) => token.type === 'checkbox') as Tokens.Checkbox | undefined;
  const inner = checkbox ? width - 2 : width;
  const rows: Row[] = [];
  let index = 0;
  for (const token of tokens) {
    if (token.type === 'space' || token.type === 'def' || token.type === 'checkbox') continue;
    if (spaced && index > 0) rows.push(EMPTY_ROW);
    rows.push(...block(token, inner, palette));
    index++;
  }
  if (!checkbox) return rows;
  return beside([[{ text: checkbox.checked ? '☑ ' : '☐ ', look: PLAIN }]], 2, rows);
}

function styledRows(nodes: readonly Styled[], width: number, look: Look = PLAIN): Row[] {
  return wrapSpans(spansOf(nodes, look), width);
}

function block(token: Token, width: number, palette: Palette): Row[] {
  switch (token.type) {
    case 'heading': {
      const heading = token as Tokens.Heading;
      return styledRows(inlineStyled(heading.tokens, palette), width, {
        bold: true,
        color: heading.depth <= 2 ? palette.heading : undefined,
        underline: heading.depth === 1,
      });
    }
    case 'paragraph':
      return styledRows(inlineStyled((token as Tokens.Paragraph).tokens, palette), width);
    case 'text': {
      const text = token as Tokens.Text;
      return styledRows(text.tokens ? inlineStyled(text.tokens, palette) : [text.text], width);
    }
    case 'code':
      return codeBlock(token as Tokens.Code, width, palette);
    case 'blockquote': {
      const content = blocks((token as Tokens.Blockquote).tokens, width - 2, palette, true);
      return content.map((row) => [{ text: '│ ', look: { dim: true } }, ...row]);
    }
    case 'list':
      return list(token as Tokens.List, width, palette);
    case 'table':
      return table(token as Tokens.Table, width, palette);
    case 'hr':
      return wrapText('─'.repeat(Math.max(3, Math.min(width, 80))), { dim: true }, width);
    default:
      return wrapText(token.raw.replace(/\n+$/, ''), PLAIN, width);
  }
}

function codeBlock(token: Tokens.Code, width: number, palette: Palette): Row[] {
  const language = token.lang?.trim().split(/\s+/)[0];
  const inner = width - 2;
  const label = language ? wrapText(language, { dim: true }, inner) : [];
  const runs = highlightRuns(token.text, language, palette.syntax);
  const code = wrapSpans(
    runs.map((run): Span => ({ text: cleanText(run.text), look: run.tint ? { color: run.tint } : PLAIN })),
    inner,
  );
  return indent([...label, ...code], 2);
}

function list(token: Tokens.List, width: number, palette: Palette): Row[] {
  const start = typeof token.start === 'number' ? token.start : 1;
  const markers = token.items.map((_, index) => (token.ordered ? `${start + index}.` : '•'));
  const markerWidth = Math.max(...markers.map((marker) => marker.length)) + 1;
  const rows: Row[] = [];
  for (const [index, item] of token.items.entries()) {
    if (token.loose && index > 0) rows.push(EMPTY_ROW);
    const marker: Row = [{ text: markers[index], look: token.ordered ? PLAIN : { dim: true } }];
    rows.push(...beside([marker], markerWidth, blocks(item.tokens, width - markerWidth, palette, false)));
  }
  return rows;
}

/** How many columns a cell's text and its longest word take on screen: as shown (no markup), wide characters and emoji counted as the terminal draws them. */
function cellMeasure(cell: Tokens.TableCell | undefined, palette: Palette): ColumnMeasure {
  if (!cell) return { widest: 0, longestWord: 0 };
  const text = plainText(inlineStyled(cell.tokens, palette)).replace(/\s+/g, ' ').trim();
  return { widest: textWidth(text), longestWord: Math.max(0, ...text.split(' ').map(textWidth)) };
}

/** Each column's widest cell and longest word, header included. */
function measureColumns(token: Tokens.Table, palette: Palette): ColumnMeasure[] {
  return token.header.map((cell, column) => {
    const cells = [cellMeasure(cell, palette), ...token.rows.map((row) => cellMeasure(row[column], palette))];
    return { widest: Math.max(...cells.map((measure) => measure.widest)), longestWord: Math.max(...cells.map((measure) => measure.longestWord)) };
  });
}

function table(token: Tokens.Table, width: number, palette: Palette): Row[] {
  // Three columns between each two: ` │ `.
  const widths = columnWidths(measureColumns(token, palette), width - (token.header.length - 1) * 3);
  const gap: Span = { text: ' │ ', look: { dim: true } };
  const line = (cells: readonly Tokens.TableCell[], header: boolean): Row[] => {
    const drawn = cells.map((cell, column) => styledRows(inlineStyled(cell.tokens, palette), widths[column], header ? { bold: true } : PLAIN));
    const height = Math.max(1, ...drawn.map((rows) => rows.length));
    return Array.from({ length: height }, (_, index) =>
      drawn.flatMap((rows, column) => [
        ...(column > 0 ? [gap] : []),
        ...padRow(rows[index] ?? EMPTY_ROW, widths[column], token.align[column] === 'right' ? 'right' : token.align[column] === 'center' ? 'center' : 'left'),
      ]),
    );
  };
  return [
    ...line(token.header, true),
    [{ text: widths.map((columns) => '─'.repeat(columns)).join('─┼─'), look: { dim: true } }],
    ...token.rows.flatMap((cells) => line(cells, false)),
  ];
}
