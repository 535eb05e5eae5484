import { Box, Text } from 'ink';
import { usePalette } from './palette.js';

/** Under the input while a question is open: the next message answers it. */
export function WaitingHint() {
  const colour = usePalette();
  return (
    <Box paddingLeft={2}>
      <Text color={colour.question}>waiting for your reply</Text>
    </Box>
  );
}
