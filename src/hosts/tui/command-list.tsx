import { Box, Text } from 'ink';
import { usePalette } from './palette.js';

export interface CommandListEntry {
  name: string;
  summary: string;
}

/** The commands matching what is typed after `/`; the selected one is what Tab completes. */
export function CommandList({ commands, selected, max = 8 }: { commands: CommandListEntry[]; selected: number; max?: number }) {
  const colour = usePalette();
  if (commands.length === 0) return null;
  const first = Math.min(Math.max(0, selected - max + 1), Math.max(0, commands.length - max));
  const shown = commands.slice(first, first + max);
  const width = Math.max(...shown.map((command) => command.name.length)) + 1;
  return (
    <Box flexDirection="column" paddingLeft={2}>
      {shown.map((command, index) => {
        const active = first + index === selected;
        return (
          <Text key={command.name} wrap="truncate-end" color={active ? colour.accent : undefined} dimColor={!active}>
            {`/${command.name}`.padEnd(width + 2)}
            {command.summary}
          </Text>
        );
      })}
      {commands.length > shown.length && <Text dimColor>{commands.length - shown.length} more · ↑↓ to move, Tab to complete</Text>}
    </Box>
  );
}
