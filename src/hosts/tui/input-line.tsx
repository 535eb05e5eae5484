import { Box, Text } from 'ink';
import { memo } from 'react';
import { usePalette } from './palette.js';
import { glyph } from './theme.js';
import { graphemeEndAfter } from './graphemes.js';

export interface InputLineProps {
  text: string;
  cursor: number;
  placeholder?: string;
  /** At most this many lines are drawn, around the cursor; a long paste says how many more. */
  maxLines?: number;
}

/** One line of the input, with the cursor drawn as an inverted character when it is on this line. */
function EditedLine({ line, cursorAt }: { line: string; cursorAt?: number }) {
  if (cursorAt === undefined) return <Text>{line === '' ? ' ' : line}</Text>;
  // The whole character under the cursor, an emoji with its modifiers included.
  const end = graphemeEndAfter(line, cursorAt);
  const under = cursorAt < line.length ? line.slice(cursorAt, end) : ' ';
  return (
    <Text>
      {line.slice(0, cursorAt)}
      <Text inverse>{under}</Text>
      {line.slice(end)}
    </Text>
  );
}

function PromptGutter({ first }: { first: boolean }) {
  const colour = usePalette();
  return (
    <Box width={2} flexShrink={0}>
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
