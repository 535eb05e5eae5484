import { Box, Text } from 'ink';
import { memo } from 'react';
import { visibleQueue, type QueuedLine } from './use-message-queue.js';

export interface QueuedMessagesProps {
  lines: readonly QueuedLine[];
  /** A questionnaire is on screen: the keys are its own, and the queue waits for it. */
  questionOpen?: boolean;
}

/** A line's first line, with a mark when there is more: a row never wraps. */
function firstLine(text: string): string {
  const end = text.indexOf('\n');
  return end < 0 ? text : `${text.slice(0, end)} …`;
}

/** Above the input, one dim row a queued line, newest last, and what the keys do with them. */
export const QueuedMessages = memo(function QueuedMessages({ lines, questionOpen }: QueuedMessagesProps) {
  if (lines.length === 0) return null;
  const { hidden, shown } = visibleQueue(lines);
  return (
    <Box flexDirection="column" marginTop={1}>
      {hidden > 0 && <Text dimColor>{`  … ${hidden} more queued`}</Text>}
      {shown.map((line) => (
        <Text key={line.id} dimColor wrap="truncate-end">
          {`  queued: ${firstLine(line.text)}`}
        </Text>
      ))}
      <Text dimColor wrap="truncate-end">
        {questionOpen ? '  sent once the question is answered and the turn ends' : '  ↑ edits the last · Esc removes it · sent as turns end'}
      </Text>
    </Box>
  );
});
