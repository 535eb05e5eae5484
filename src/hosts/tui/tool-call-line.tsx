import { Box, Text } from 'ink';
import type { ToolCallState } from './display-items.js';
import { colour, glyph } from './theme.js';
import { summarizeArgs, summarizeResult } from './tool-summary.js';

export interface ToolCallLineProps {
  name: string;
  args: string;
  result?: string;
  state: ToolCallState;
}

const MARK: Record<ToolCallState, { text: string; colour?: string }> = {
  running: { text: glyph.tool },
  ok: { text: glyph.ok, colour: colour.ok },
  error: { text: glyph.error, colour: colour.error },
  'not-run': { text: glyph.canceled },
};

function Outcome({ result, state }: Pick<ToolCallLineProps, 'result' | 'state'>) {
  if (state === 'running') return <Text dimColor> running{glyph.running}</Text>;
  if (state === 'not-run') return <Text dimColor> not run</Text>;
  const summary = summarizeResult(result ?? '');
  return state === 'error' ? <Text color={colour.error}> error: {summary}</Text> : <Text dimColor> → {summary}</Text>;
}

/** One line per tool call: its name, short arguments, then the result or error in a few words. */
export function ToolCallLine({ name, args, result, state }: ToolCallLineProps) {
  const mark = MARK[state];
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
