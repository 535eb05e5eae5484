import type { TurnStatus } from '../../../kernel/events.js';
import { imageLabel } from '../../../kernel/image-input.js';
import type { DisplayItem } from '../display-items.js';
import { markdownRows } from '../markdown/markdown-rows.js';
import type { Palette } from '../palette.js';
import { glyph } from '../theme.js';
import { summarizeArgs, summarizeResult } from '../tool-summary.js';
import { beside, indent, truncateRow, wrapSpans, wrapText } from './row-layout.js';
import { EMPTY_ROW, spansOf, type Look, type Row } from './styled-text.js';

/** A marker two columns wide, the item's text beside it. */
const GUTTER = 2;

/**
 * A transcript item as rows `width` columns wide: what the live frame draws for it and what is
 * printed above the frame once it is finished, the one layout of both.
 */
export function itemRows(item: DisplayItem, width: number, palette: Palette): Row[] {
  const text = Math.max(1, width - GUTTER);
  switch (item.kind) {
    case 'header':
      return header(item, width, palette);
    case 'user':
      return gutter(glyph.prompt, { bold: true, color: palette.accent }, wrapText(item.text, { dim: true }, text), 1);
    case 'attachment':
      return indent([truncateRow([{ text: `attached ${imageLabel(item)}`, look: { dim: true } }], Math.max(1, width - 2))], 2);
    case 'assistant':
      return gutter(item.continued ? ' ' : glyph.assistant, { bold: true }, item.text.trim() === '' ? [EMPTY_ROW] : markdownRows(item.text, text, palette), 1);
    case 'tool':
      return toolRows(item, width, palette);
    case 'question':
      // Drawn as a reply is: the agent writes its question in markdown too.
      return gutter(glyph.question, { bold: true, color: palette.question }, markdownRows(item.text, text, palette), 1);
    case 'answer':
      return gutter(glyph.prompt, { bold: true, color: palette.accent }, wrapText(item.text, { dim: true }, text), 0);
    case 'turn-end': {
      const failed = item.status === 'failed';
      const mark = failed ? glyph.error : item.status === 'canceled' ? glyph.canceled : glyph.warning;
      const tint = failed ? palette.error : palette.warning;
      return gutter(mark, { bold: true, color: tint }, wrapText(turnEndText(item.status, item.message), { color: tint }, text), 0);
    }
    case 'system': {
      const look =
        item.tone === 'warning'
          ? { mark: glyph.warning, colour: palette.warning }
          : item.tone === 'error'
            ? { mark: glyph.error, colour: palette.error }
            : { mark: ' ', colour: undefined };
      return gutter(look.mark, { bold: true, color: look.colour }, wrapText(item.text, { color: look.colour, dim: item.tone === 'info' }, text), 0);
    }
  }
}

/** `failed: the provider refused the key`; a message that already names the status is said alone. */
export function turnEndText(status: TurnStatus, message?: string): string {
  if (!message) return status;
  const word = status === 'budget-exhausted' ? 'stopped' : status;
  return message.toLowerCase().startsWith(word) ? message : `${status}: ${message}`;
}

function gutter(mark: string, markLook: Look, content: readonly Row[], marginTop: number): Row[] {
  // Even an item without text shows its marker.
  const rows = beside([[{ text: mark, look: markLook }]], GUTTER, content.length > 0 ? content : [EMPTY_ROW]);
  return marginTop > 0 ? [EMPTY_ROW, ...rows] : rows;
}

/** Printed once at the top: who is talking, on which model, in which session. */
function header(item: Extract<DisplayItem, { kind: 'header' }>, width: number, palette: Palette): Row[] {
  const title = spansOf([
    { look: { bold: true, color: palette.accent }, children: [item.title] },
    { look: { dim: true }, children: [` · ${item.model} · session ${item.sessionId}${item.resumed ? ' (resumed)' : ''}`] },
  ]);
  return [...wrapSpans(title, width), ...wrapText('/help for commands · Esc cancels a turn · Ctrl+C twice or Ctrl+D quits', { dim: true }, width)];
}

/** One line per tool call: its name, short arguments, then the result or error in a few words; cut at the screen's edge. */
function toolRows(item: Extract<DisplayItem, { kind: 'tool' }>, width: number, palette: Palette): Row[] {
  const mark =
    item.state === 'ok'
      ? { text: glyph.ok, look: { color: palette.ok, dim: palette.ok === undefined } }
      : item.state === 'error'
        ? { text: glyph.error, look: { color: palette.error, dim: palette.error === undefined } }
        : { text: item.state === 'running' ? glyph.tool : glyph.canceled, look: { dim: true } };
  const outcome =
    item.state === 'running'
      ? { look: { dim: true }, children: [` running${glyph.running}`] }
      : item.state === 'not-run'
        ? { look: { dim: true }, children: [' not run'] }
        : item.state === 'error'
          ? { look: { color: palette.error }, children: [` error: ${summarizeResult(item.result ?? '')}`] }
          : { look: { dim: true }, children: [` → ${summarizeResult(item.result ?? '')}`] };
  const spans = spansOf([
    { look: mark.look, children: [`${mark.text} `] },
    { look: { bold: true }, children: [item.name] },
    { look: { dim: true }, children: [`(${summarizeArgs(item.args)})`] },
    outcome,
  ]).map((span) => ({ ...span, text: span.text.replace(/\n/g, ' ') }));
  return indent([truncateRow(spans, Math.max(1, width - 2))], 2);
}
