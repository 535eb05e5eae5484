import { Box, Text } from 'ink';
import type { HeaderInfo } from './display-items.js';
import { usePalette } from './palette.js';

/** Printed once at the top: who is talking, on which model, in which session. */
export function Header({ title, model, sessionId, resumed }: HeaderInfo) {
  const colour = usePalette();
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold color={colour.accent}>
          {title}
        </Text>
        <Text dimColor>
          {' '}· {model} · session {sessionId}
          {resumed ? ' (resumed)' : ''}
        </Text>
      </Text>
      <Text dimColor>/help for commands · Esc cancels a turn · Ctrl+C twice or Ctrl+D quits</Text>
    </Box>
  );
}
