import { Box, Text } from 'ink';
import { contextText, shortTokens } from '../../kernel/context/context-events.js';
import type { TurnStatus } from '../../kernel/events.js';
import { usePalette, type Palette } from './palette.js';
import { glyph } from './theme.js';
import { useNow } from './use-now.js';
import { spentText } from './usage-text.js';
import type { ContextUse, TokenUsage, TurnSummary } from './view-state.js';

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
/** How often the spinner turns when nothing else draws the screen. */
const SPINNER_MS = 200;

/**
 * The spinner and elapsed seconds of a running turn; it ticks on its own, nothing else redraws.
 * A notice (`canceling…`) takes the place of the key hint; what does not fit is cut, never
 * wrapped, so the line stays one row however narrow the terminal.
 */
export function Working({ since, notice, hint = 'Esc to cancel' }: { since: number; notice?: string; hint?: string }) {
  const colour = usePalette();
  const now = useNow(SPINNER_MS);
  const elapsed = Math.max(0, now - since);
  return (
    <Text wrap="truncate-end">
      <Text color={colour.accent}>{SPINNER[Math.floor(elapsed / SPINNER_MS) % SPINNER.length]}</Text>
      <Text> working {Math.floor(elapsed / 1000)}s</Text>
      {notice ? <Text color={colour.warning}> · {notice}</Text> : <Text dimColor> · {hint}</Text>}
    </Text>
  );
}

function lookOf(status: TurnStatus, colour: Palette): { mark: string; colour: string | undefined } {
  switch (status) {
    case 'completed':
      return { mark: glyph.ok, colour: colour.ok };
    case 'input-required':
      return { mark: glyph.question, colour: colour.question };
    case 'failed':
      return { mark: glyph.error, colour: colour.error };
    case 'canceled':
      return { mark: glyph.canceled, colour: colour.warning };
    case 'budget-exhausted':
      return { mark: glyph.warning, colour: colour.warning };
  }
}

/** The last turn's status. Why it failed is said once, in the transcript above. */
export function TurnStatusText({ status }: TurnSummary) {
  const look = lookOf(status, usePalette());
  return (
    <Text color={look.colour} wrap="truncate-end">
      {look.mark} {status}
    </Text>
  );
}

/** The session's token use so far: `1.2k in · 340 out tokens`, counted as the context meter counts. */
export function tokenText(usage: TokenUsage): string | undefined {
  if (usage.inputTokens === 0 && usage.outputTokens === 0) return undefined;
  return `${shortTokens(usage.inputTokens)} in · ${shortTokens(usage.outputTokens)} out tokens`;
}

export interface StatusLineProps {
  running: boolean;
  startedAt?: number;
  lastTurn?: TurnSummary;
  /**
   * A questionnaire waits for the person: it is their turn, so no clock runs and Esc is theirs
   * (it declines the question) rather than the turn's.
   */
  personsTurn?: boolean;
  /** Short texts augments contribute (`? ask (2)`), shown at the right. */
  indicators: string[];
  /** The session's token use, shown at the right. */
  usage?: TokenUsage;
  /** A passing remark (`press Ctrl+C again to quit`); it takes the place of the last status. */
  notice?: string;
  /** The context meter (`ctx 41% of 200k`), shown at the right where the folder states the window. */
  context?: ContextUse;
  /** What the keys do while a turn runs (`Esc to cancel`, `Enter queues`). */
  hint?: string;
}

export function StatusLine({ running, startedAt, lastTurn, personsTurn, indicators, usage, notice, context, hint }: StatusLineProps) {
  const colour = usePalette();
  let left;
  if (running && personsTurn)
    left = (
      <Text color={colour.question} wrap="truncate-end">
        {glyph.question} your turn: the agent waits for your answer
      </Text>
    );
  else if (running) left = <Working since={startedAt ?? Date.now()} notice={notice} hint={hint} />;
  else if (notice) left = <Text color={colour.warning}>{notice}</Text>;
  else if (lastTurn) left = <TurnStatusText {...lastTurn} />;
  else left = <Text dimColor>ready</Text>;
  const tokens =
    [
      context?.limit !== undefined && context.used > 0 ? contextText(context) : undefined,
      usage ? tokenText(usage) : undefined,
      usage ? spentText(usage) : undefined,
    ]
      .filter(Boolean)
      .join(' · ') || undefined;
  return (
    <Box>
      <Box flexGrow={1} flexShrink={1}>
        {left}
      </Box>
      {indicators.length > 0 && (
        <Box flexShrink={0} marginLeft={2}>
          <Text color={colour.accent}>{indicators.join(' · ')}</Text>
        </Box>
      )}
      {tokens && (
        <Box flexShrink={0} marginLeft={2}>
          <Text dimColor>{tokens}</Text>
        </Box>
      )}
    </Box>
  );
}
