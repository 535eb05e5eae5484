import type { Token, Tokens } from 'marked';
import { NO_COLOUR_PALETTE, type Palette } from '../palette.js';
import { highlightRuns } from '../markdown/highlight-code.js';
import { lexMarkdown } from '../markdown/markdown-blocks.js';
import { EMPTY_ROW, beside, indent, isNamedColour, lookStyle, wrapSpans, wrapStyled, type Row, type StyleName, type Styled } from './styled-rows.js';

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
      const text = inline(heading.tokens, palette);
      return text && wrapStyled(text, width, lookStyle({ bold: true, color: colour, underline: heading.depth === 1 }));
    }
    case 'paragraph': {
      const text = inline((token as Tokens.Paragraph).tokens, palette);
      return text && wrapStyled(text, width);
    }
    case 'text': {
      const text = token as Tokens.Text;
      const nodes = text.tokens ? inline(text.tokens, palette) : [text.text];
      return nodes && wrapStyled(nodes, width);
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
  const code = wrapStyled(runs.map((run) => (run.tint ? { style: [run.tint], children: [run.text] } : run.text)), inner);
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

/** Inline tokens as the <Text>s markdown/markdown-inline.tsx nests them in. */
function inline(tokens: readonly Token[] | undefined, palette: Palette): Styled[] | undefined {
  const nodes: Styled[] = [];
  for (const token of tokens ?? []) {
    const node = inlineToken(token, palette);
    if (node === undefined) return undefined;
    nodes.push(node);
  }
  return nodes;
}

/** The text these inline tokens show, without its styles: what a table measures its columns by. */
export function inlinePlainText(tokens: readonly Token[] | undefined): string {
  const styled = inline(tokens, NO_COLOUR_PALETTE);
  // A token these rows do not draw (Ink's renderToString does) is measured as written.
  return styled ? styled.map(plainText).join('') : (tokens ?? []).map((token) => token.raw).join('');
}

function plainText(node: Styled): string {
  return typeof node === 'string' ? node : node.children.map(plainText).join('');
}

function look(style: readonly StyleName[], children: Styled[] | undefined): Styled | undefined {
  return children && { style, children };
}

function inlineToken(token: Token, palette: Palette): Styled | undefined {
  switch (token.type) {
    case 'strong':
      return look(['bold'], inline((token as Tokens.Strong).tokens, palette));
    case 'em':
      return look(['italic'], inline((token as Tokens.Em).tokens, palette));
    case 'del':
      return look(['strikethrough'], inline((token as Tokens.Del).tokens, palette));
    case 'codespan':
      if (!isNamedColour(palette.inlineCode)) return undefined;
      return look(lookStyle({ color: palette.inlineCode, bold: palette.inlineCode === undefined }), [(token as Tokens.Codespan).text]);
    case 'link': {
      const link = token as Tokens.Link;
      if (!isNamedColour(palette.link)) return undefined;
      const label = look(lookStyle({ color: palette.link, underline: true }), inline(link.tokens, palette));
      if (!label) return undefined;
      // An address shown as its own label is said once.
      const same = link.text.trim() === link.href || `mailto:${link.text.trim()}` === link.href;
      return look([], [label, same ? '' : { style: ['dim'], children: [` (${link.href})`] }]);
    }
    case 'image': {
      const image = token as Tokens.Image;
      return look(['dim'], [`[image: ${image.text || image.href}]`]);
    }
    case 'br':
      return '\n';
    case 'text': {
      const text = token as Tokens.Text;
      return text.tokens && text.tokens.length > 0 ? look([], inline(text.tokens, palette)) : text.text;
    }
    case 'escape':
      return (token as Tokens.Escape).text;
    case 'checkbox':
      return (token as Tokens.Checkbox).checked ? '☑ ' : '☐ ';
    default:
      return token.raw;
  }
}
