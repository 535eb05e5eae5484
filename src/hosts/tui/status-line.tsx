import { Box, Text } from 'ink';
import type { TurnStatus } from '../../kernel/events.js';
import { colour, glyph } from './theme.js';
import { useNow } from './use-now.js';
import type { TurnSummary } from './view-state.js';

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** The spinner and elapsed seconds of a running turn; it ticks on its own, nothing else redraws. */
export function Working({ since }: { since: number }) {
  const now = useNow(100);
  const elapsed = Math.max(0, now - since);
  return (
    <Text>
      <Text color={colour.accent}>{SPINNER[Math.floor(elapsed / 100) % SPINNER.length]}</Text>
      <Text> working {Math.floor(elapsed / 1000)}s</Text>
      <Text dimColor> · Esc to cancel</Text>
    </Text>
  );
}

const LOOK: Record<TurnStatus, { mark: string; colour: string }> = {
  completed: { mark: glyph.ok, colour: colour.ok },
  'input-required': { mark: glyph.question, colour: colour.question },
  failed: { mark: glyph.error, colour: colour.error },
  canceled: { mark: glyph.canceled, colour: colour.warning },
  'budget-exhausted': { mark: glyph.warning, colour: colour.warning },
};

/** The last turn's status; a failure carries its one-sentence reason. */
export function TurnStatusText({ status, message }: TurnSummary) {
  const look = LOOK[status];
  const reason = status === 'failed' || status === 'budget-exhausted' ? message : undefined;
  return (
    <Text color={look.colour} wrap="truncate-end">
      {look.mark} {status}
      {reason ? `: ${reason}` : ''}
    </Text>
  );
}

export interface StatusLineProps {
  running: boolean;
  startedAt?: number;
  lastTurn?: TurnSummary;
  /** Short texts augments contribute (`? ask (2)`), shown at the right. */
  indicators: string[];
  /** A passing remark (`press Ctrl+C again to quit`); it takes the place of the last status. */
  notice?: string;
}

export function StatusLine({ running, startedAt, lastTurn, indicators, notice }: StatusLineProps) {
  let left;
  if (running) left = <Working since={startedAt ?? Date.now()} />;
  else if (notice) left = <Text color={colour.warning}>{notice}</Text>;
  else if (lastTurn) left = <TurnStatusText {...lastTurn} />;
  else left = <Text dimColor>ready</Text>;
  return (
    <Box>
      <Box flexGrow={1} flexShrink={1}>
        {running && notice ? (
          <Text>
            {left}
            <Text color={colour.warning}> · {notice}</Text>
          </Text>
        ) : (
          left
        )}
      </Box>
      {indicators.length > 0 && (
        <Box flexShrink={0} marginLeft={2}>
          <Text color={colour.accent}>{indicators.join(' · ')}</Text>
        </Box>
      )}
    </Box>
  );
}
