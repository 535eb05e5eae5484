import { Box, Text } from 'ink';
import { usePalette } from './palette.js';
import { glyph } from './theme.js';

/** The agent's question (a turn that ended input-required), marked apart from ordinary replies. */
export function QuestionView({ text }: { text: string }) {
  const colour = usePalette();
  return (
    <Box marginTop={1}>
      <Text bold color={colour.question}>
        {glyph.question}{' '}
      </Text>
      <Box flexGrow={1}>
        <Text bold>{text}</Text>
      </Box>
    </Box>
  );
}

/** Under the input while a question is open: the next message answers it. */
export function WaitingHint() {
  const colour = usePalette();
  return (
    <Box paddingLeft={2}>
      <Text color={colour.question}>waiting for your reply</Text>
    </Box>
  );
}
