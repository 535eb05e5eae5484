import type { DisplayItem } from '../display-items.js';
import { turnEndText } from '../message-lines.js';
import type { Palette } from '../palette.js';
import { glyph } from '../theme.js';
import { summarizeArgs, summarizeResult } from '../tool-summary.js';
import { markdownRows } from './markdown-rows.js';
import { EMPTY_ROW, beside, indent, isNamedColour, isOneColumnText, lookStyle, wrapSpans, type Row, type Span, type StyleName } from './styled-rows.js';

/**
 * A finished transcript item as rows of styled text, the same rows the item's component
 * (transcript-item.tsx) draws through Ink; undefined where this does not know the item's
 * drawing exactly (Ink draws it then). Laying 2,000 items out through Ink took seconds, most
 * of it Ink building a cell grid of every row and column and re-reading every character's
 * escape codes (profiled, docs/performance.md); these rows cost a few microseconds each.
 */
export function itemRows(item: DisplayItem, width: number, palette: Palette): Row[] | undefined {
  const colours = [palette.accent, palette.question, palette.error, palette.warning, palette.ok, palette.heading, palette.inlineCode, palette.link];
  if (!colours.every(isNamedColour)) return undefined;
  const text = width - GUTTER;
  switch (item.kind) {
    case 'header':
      return header(item, width, palette);
    case 'user':
      return gutter(glyph.prompt, lookStyle({ bold: true, color: palette.accent }), wrapSpans([{ text: item.text, style: ['dim'] }], text), 1);
    case 'assistant': {
      if (item.text.trim() === '') return gutter(item.continued ? ' ' : glyph.assistant, ['bold'], [EMPTY_ROW], 1);
      // The markdown is drawn at least 20 columns wide, wider than a very narrow screen's room.
      if (text < 20) return undefined;
      return gutter(item.continued ? ' ' : glyph.assistant, ['bold'], markdownRows(item.text, text, palette), 1);
    }
    case 'tool':
      return toolRows(item, width, palette);
    case 'question':
      // Its mark is not held to a width: a longer question squeezes it, the way flex layout shares room.
      if (item.text.includes('\n') || item.text.length > text) return undefined;
      return gutter(`${glyph.question} `, lookStyle({ bold: true, color: palette.question }), wrapSpans([{ text: item.text, style: ['bold'] }], text), 1);
    case 'turn-end': {
      const failed = item.status === 'failed';
      const mark = failed ? glyph.error : item.status === 'canceled' ? glyph.canceled : glyph.warning;
      const tint = failed ? palette.error : palette.warning;
      return gutter(mark, lookStyle({ bold: true, color: tint }), wrapSpans([{ text: turnEndText(item.status, item.message), style: lookStyle({ color: tint }) }], text), 0);
    }
    case 'system': {
      const look = item.tone === 'warning' ? { mark: glyph.warning, colour: palette.warning } : item.tone === 'error' ? { mark: glyph.error, colour: palette.error } : { mark: ' ', colour: undefined };
      const style = lookStyle({ color: look.colour, dimColor: item.tone === 'info' });
      return gutter(look.mark, lookStyle({ bold: true, color: look.colour }), wrapSpans([{ text: item.text, style }], text), 0);
    }
  }
}

/** message-lines.tsx's gutter: a marker two columns wide, the text beside it. */
const GUTTER = 2;

function gutter(mark: string, markStyle: readonly StyleName[], content: Row[] | undefined, marginTop: number): Row[] | undefined {
  if (!content) return undefined;
  const rows = beside([[{ text: mark, style: markStyle }]], GUTTER, content);
  return marginTop > 0 ? [EMPTY_ROW, ...rows] : rows;
}

function header(item: Extract<DisplayItem, { kind: 'header' }>, width: number, palette: Palette): Row[] | undefined {
  const title = wrapSpans(
    [
      { text: item.title, style: lookStyle({ bold: true, color: palette.accent }) },
      { text: ` · ${item.model} · session ${item.sessionId}${item.resumed ? ' (resumed)' : ''}`, style: ['dim'] },
    ],
    width,
  );
  const help = wrapSpans([{ text: '/help for commands · Esc cancels a turn · Ctrl+C twice or Ctrl+D quits', style: ['dim'] }], width);
  return title && help ? [...title, ...help] : undefined;
}

/** tool-call-line.tsx's one line; a line too long for the screen is cut by Ink, so Ink draws that one. */
function toolRows(item: Extract<DisplayItem, { kind: 'tool' }>, width: number, palette: Palette): Row[] | undefined {
  const mark =
    item.state === 'ok'
      ? { text: glyph.ok, style: lookStyle({ color: palette.ok, dimColor: palette.ok === undefined }) }
      : item.state === 'error'
        ? { text: glyph.error, style: lookStyle({ color: palette.error, dimColor: palette.error === undefined }) }
        : { text: item.state === 'running' ? glyph.tool : glyph.canceled, style: ['dim'] };
  const outcome: Span =
    item.state === 'running'
      ? { text: ` running${glyph.running}`, style: ['dim'] }
      : item.state === 'not-run'
        ? { text: ' not run', style: ['dim'] }
        : item.state === 'error'
          ? { text: ` error: ${summarizeResult(item.result ?? '')}`, style: lookStyle({ color: palette.error }) }
          : { text: ` → ${summarizeResult(item.result ?? '')}`, style: ['dim'] };
  const spans: Span[] = [{ text: `${mark.text} `, style: mark.style }, { text: item.name, style: ['bold'] }, { text: `(${summarizeArgs(item.args)})`, style: ['dim'] }, outcome];
  const line = spans.map((span) => span.text).join('');
  if (line.includes('\n') || !isOneColumnText(line) || line.length > width - 2) return undefined;
  return indent([spans], 2);
}
