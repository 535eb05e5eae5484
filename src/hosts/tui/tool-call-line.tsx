import { Box, Text } from 'ink';
import type { ToolCallState } from './display-items.js';
import { usePalette, type Palette } from './palette.js';
import { glyph } from './theme.js';
import { summarizeArgs, summarizeResult } from './tool-summary.js';

export interface ToolCallLineProps {
  name: string;
  args: string;
  result?: string;
  state: ToolCallState;
}

function markOf(state: ToolCallState, colour: Palette): { text: string; colour?: string } {
  if (state === 'ok') return { text: glyph.ok, colour: colour.ok };
  if (state === 'error') return { text: glyph.error, colour: colour.error };
  return { text: state === 'running' ? glyph.tool : glyph.canceled };
}

function Outcome({ result, state }: Pick<ToolCallLineProps, 'result' | 'state'>) {
  const colour = usePalette();
  if (state === 'running') return <Text dimColor> running{glyph.running}</Text>;
  if (state === 'not-run') return <Text dimColor> not run</Text>;
  const summary = summarizeResult(result ?? '');
  return state === 'error' ? <Text color={colour.error}> error: {summary}</Text> : <Text dimColor> → {summary}</Text>;
}

/** One line per tool call: its name, short arguments, then the result or error in a few words. */
export function ToolCallLine({ name, args, result, state }: ToolCallLineProps) {
  const mark = markOf(state, usePalette());
  return (
    <Box paddingLeft={2}>
      <Text wrap="truncate-end">
        <Text color={mark.colour} dimColor={mark.colour === undefined}>
          {mark.text}{' '}
        </Text>
        <Text bold>{name}</Text>
        <Text dimColor>({summarizeArgs(args)})</Text>
        <Outcome result={result} state={state} />
      </Text>
    </Box>
  );
}
