import type { Token, Tokens } from 'marked';
import type { Palette } from '../palette.js';
import { highlightRuns } from '../markdown/highlight-code.js';
import { lexMarkdown } from '../markdown/markdown-blocks.js';
import { EMPTY_ROW, beside, indent, isNamedColour, lookStyle, nestStyle, wrapSpans, type Row, type Span, type StyleName } from './styled-rows.js';

/**
 * A reply's markdown as rows of styled text, exactly as markdown/markdown-view.tsx draws it:
 * paragraphs, headings, code blocks, rules and lists. Undefined for anything else (tables,
 * quotes, task lists, text that is not all one column wide): Ink draws those itself.
 */
export function markdownRows(text: string, width: number, palette: Palette): Row[] | undefined {
  return blocks(lexMarkdown(text), width, palette, true);
}

function blocks(tokens: readonly Token[], width: number, palette: Palette, spaced: boolean): Row[] | undefined {
  // A task item's checkbox sits beside its text and narrows it: left to Ink.
  if (tokens.some((token) => token.type === 'checkbox')) return undefined;
  const rows: Row[] = [];
  let index = 0;
  for (const token of tokens) {
    if (token.type === 'space' || token.type === 'def') continue;
    const drawn = block(token, width, palette);
    if (!drawn) return undefined;
    if (spaced && index > 0) rows.push(EMPTY_ROW);
    rows.push(...drawn);
    index++;
  }
  return rows;
}

function block(token: Token, width: number, palette: Palette): Row[] | undefined {
  switch (token.type) {
    case 'heading': {
      const heading = token as Tokens.Heading;
      const colour = heading.depth <= 2 ? palette.heading : undefined;
      if (!isNamedColour(colour)) return undefined;
      const spans = inline(heading.tokens, lookStyle({ bold: true, color: colour, underline: heading.depth === 1 }), palette);
      return spans && wrapSpans(spans, width);
    }
    case 'paragraph': {
      const spans = inline((token as Tokens.Paragraph).tokens, [], palette);
      return spans && wrapSpans(spans, width);
    }
    case 'text': {
      const text = token as Tokens.Text;
      const spans = text.tokens ? inline(text.tokens, [], palette) : [{ text: text.text, style: [] }];
      return spans && wrapSpans(spans, width);
    }
    case 'code':
      return codeBlock(token as Tokens.Code, width, palette);
    case 'hr':
      return wrapSpans([{ text: '─'.repeat(Math.max(3, Math.min(width, 80))), style: ['dim'] }], width);
    case 'list':
      return list(token as Tokens.List, width, palette);
    default:
      return undefined;
  }
}

function codeBlock(token: Tokens.Code, width: number, palette: Palette): Row[] | undefined {
  // An empty block is a <Text> of nothing, which Ink lays out its own way.
  if (token.text === '') return undefined;
  const language = token.lang?.trim().split(/\s+/)[0];
  const inner = width - 2;
  const rows: Row[] = [];
  if (language) {
    const label = wrapSpans([{ text: language, style: ['dim'] }], inner);
    if (!label) return undefined;
    rows.push(...label);
  }
  const runs = highlightRuns(token.text, language, palette.syntax);
  if (runs.some((run) => !isNamedColour(run.tint))) return undefined;
  const code = wrapSpans(runs.map((run) => ({ text: run.text, style: run.tint ? [run.tint] : [] })), inner);
  if (!code) return undefined;
  rows.push(...code);
  return indent(rows, 2);
}

function list(token: Tokens.List, width: number, palette: Palette): Row[] | undefined {
  const start = typeof token.start === 'number' ? token.start : 1;
  const markers = token.items.map((_, index) => (token.ordered ? `${start + index}.` : '•'));
  const markerWidth = Math.max(...markers.map((marker) => marker.length)) + 1;
  const rows: Row[] = [];
  for (const [index, item] of token.items.entries()) {
    const content = blocks(item.tokens, width - markerWidth, palette, false);
    if (!content) return undefined;
    if (token.loose && index > 0) rows.push(EMPTY_ROW);
    rows.push(...beside([[{ text: markers[index], style: token.ordered ? [] : ['dim'] }]], markerWidth, content));
  }
  return rows;
}

/** Inline tokens as spans inside `outer`, as markdown/markdown-inline.tsx nests its <Text>s. */
function inline(tokens: readonly Token[] | undefined, outer: readonly StyleName[], palette: Palette): Span[] | undefined {
  const spans: Span[] = [];
  for (const token of tokens ?? []) {
    const drawn = inlineToken(token, outer, palette);
    if (!drawn) return undefined;
    spans.push(...drawn);
  }
  return spans;
}

function inlineToken(token: Token, outer: readonly StyleName[], palette: Palette): Span[] | undefined {
  const plain = (text: string, style: readonly StyleName[] = outer): Span[] => [{ text, style }];
  switch (token.type) {
    case 'strong':
      return inline((token as Tokens.Strong).tokens, nestStyle(outer, ['bold']), palette);
    case 'em':
      return inline((token as Tokens.Em).tokens, nestStyle(outer, ['italic']), palette);
    case 'del':
      return inline((token as Tokens.Del).tokens, nestStyle(outer, ['strikethrough']), palette);
    case 'codespan':
      if (!isNamedColour(palette.inlineCode)) return undefined;
      return plain((token as Tokens.Codespan).text, nestStyle(outer, lookStyle({ color: palette.inlineCode, bold: palette.inlineCode === undefined })));
    case 'link': {
      const link = token as Tokens.Link;
      if (!isNamedColour(palette.link)) return undefined;
      const label = inline(link.tokens, nestStyle(outer, lookStyle({ color: palette.link, underline: true })), palette);
      if (!label) return undefined;
      const same = link.text.trim() === link.href || `mailto:${link.text.trim()}` === link.href;
      return same ? label : [...label, { text: ` (${link.href})`, style: nestStyle(outer, ['dim']) }];
    }
    case 'image': {
      const image = token as Tokens.Image;
      return plain(`[image: ${image.text || image.href}]`, nestStyle(outer, ['dim']));
    }
    case 'br':
      return plain('\n');
    case 'text': {
      const text = token as Tokens.Text;
      return text.tokens && text.tokens.length > 0 ? inline(text.tokens, outer, palette) : plain(text.text);
    }
    case 'escape':
      return plain((token as Tokens.Escape).text);
    case 'checkbox':
      return plain((token as Tokens.Checkbox).checked ? '☑ ' : '☐ ');
    default:
      return plain(token.raw);
  }
}
