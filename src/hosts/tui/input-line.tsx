import { Box, Text } from 'ink';
import { memo } from 'react';
import { usePalette } from './palette.js';
import { glyph } from './theme.js';
import { cursorInRows, editedRows } from './edited-rows.js';
import { graphemeEndAfter } from './graphemes.js';
import { useScreenWidth } from './screen-width.js';

/** The prompt's column, beside the text. */
const GUTTER = 2;

export interface InputLineProps {
  text: string;
  cursor: number;
  placeholder?: string;
  /** At most this many lines are drawn, around the cursor; a long paste says how many more. */
  maxLines?: number;
}

/** One row of the input, with the cursor drawn as an inverted character when it is on this row. */
function EditedRowText({ text, cursorAt }: { text: string; cursorAt?: number }) {
  if (cursorAt === undefined) return <Text>{text === '' ? ' ' : text}</Text>;
  // The whole character under the cursor, an emoji with its modifiers included.
  const end = graphemeEndAfter(text, cursorAt);
  const under = cursorAt < text.length ? text.slice(cursorAt, end) : ' ';
  return (
    <Text>
      {text.slice(0, cursorAt)}
      <Text inverse>{under}</Text>
      {text.slice(end)}
    </Text>
  );
}

/** One line of the input in rows wrapped at words (edited-rows.ts), the cursor on the row it is in. */
function EditedLine({ line, cursorAt }: { line: string; cursorAt?: number }) {
  const rows = editedRows(line, useScreenWidth() - GUTTER);
  const cursor = cursorAt === undefined ? undefined : cursorInRows(rows, cursorAt);
  return (
    <Box flexDirection="column">
      {rows.map(({ start, shownEnd }, index) => (
        <EditedRowText key={start} text={line.slice(start, shownEnd)} cursorAt={cursor?.row === index ? cursor.at - start : undefined} />
      ))}
    </Box>
  );
}

function PromptGutter({ first }: { first: boolean }) {
  const colour = usePalette();
  return (
    <Box width={GUTTER} flexShrink={0}>
      <Text color={colour.accent} bold>
        {first ? glyph.prompt : ' '}
      </Text>
    </Box>
  );
}

/** The lines of `text` with where each starts, and the one the cursor is on. */
function splitLines(text: string, cursor: number): { lines: { line: string; start: number }[]; cursorLine: number } {
  let start = 0;
  let cursorLine = 0;
  const lines = text.split('\n').map((line, index) => {
    if (cursor >= start && cursor <= start + line.length) cursorLine = index;
    const entry = { line, start };
    start += line.length + 1;
    return entry;
  });
  return { lines, cursorLine };
}

/** The prompt and the text being typed; several lines when the text has newlines (a paste). Drawn again only when they change. */
export const InputLine = memo(function InputLine({ text, cursor, placeholder, maxLines = Number.POSITIVE_INFINITY }: InputLineProps) {
  if (text === '' && placeholder) {
    return (
      <Box>
        <PromptGutter first />
        <Text>
          <Text inverse> </Text>
          <Text dimColor>{placeholder}</Text>
        </Text>
      </Box>
    );
  }
  const { lines, cursorLine } = splitLines(text, cursor);
  // A window of lines around the cursor keeps the screen from overflowing on a long paste.
  const size = Math.max(1, Math.min(lines.length, maxLines));
  const first = Math.min(Math.max(0, cursorLine - size + 1), lines.length - size);
  const above = first;
  const below = lines.length - first - size;
  return (
    <Box flexDirection="column">
      {above > 0 && <Text dimColor>{`  … ${above} more lines above`}</Text>}
      {lines.slice(first, first + size).map(({ line, start }, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a row of the input is its position; its text changes as the person types.
        <Box key={first + index}>
          <PromptGutter first={first + index === 0} />
          <Box flexGrow={1}>
            <EditedLine line={line} cursorAt={first + index === cursorLine ? cursor - start : undefined} />
          </Box>
        </Box>
      ))}
      {below > 0 && <Text dimColor>{`  … ${below} more lines below`}</Text>}
    </Box>
  );
});
