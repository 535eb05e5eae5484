import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import type { TurnStatus } from '../../kernel/events.js';
import type { SystemTone } from './display-items.js';
import { colour, glyph } from './theme.js';
import { useGutterTextWidth, wrapPlainText } from './fit-text.js';

const GUTTER_WIDTH = 2;

/** A marker in a fixed-width gutter, the text wrapping beside it. */
function Gutter({ mark, markColour, children, marginTop = 0 }: { mark: string; markColour?: string; children: ReactNode; marginTop?: number }) {
  return (
    <Box marginTop={marginTop}>
      <Box width={GUTTER_WIDTH} flexShrink={0}>
        <Text color={markColour} bold>
          {mark}
        </Text>
      </Box>
      <Box flexGrow={1}>{children}</Box>
    </Box>
  );
}

export function UserMessage({ text }: { text: string }) {
  const width = useGutterTextWidth(GUTTER_WIDTH);
  return (
    <Gutter mark={glyph.prompt} markColour={colour.accent} marginTop={1}>
      <Text dimColor>{wrapPlainText(text, width)}</Text>
    </Gutter>
  );
}

/** Assistant text; a `continued` piece carries on the message above without a new marker. */
export function AssistantMessage({ text, continued }: { text: string; continued: boolean }) {
  const width = useGutterTextWidth(GUTTER_WIDTH);
  return (
    <Gutter mark={continued ? ' ' : glyph.assistant} marginTop={continued ? 0 : 1}>
      <Text>{text === '' ? ' ' : wrapPlainText(text, width)}</Text>
    </Gutter>
  );
}

const TONE: Record<SystemTone, { mark: string; colour?: string }> = {
  info: { mark: ' ' },
  warning: { mark: glyph.warning, colour: colour.warning },
  error: { mark: glyph.error, colour: colour.error },
};

export function SystemLine({ text, tone }: { text: string; tone: SystemTone }) {
  const look = TONE[tone];
  const width = useGutterTextWidth(GUTTER_WIDTH);
  return (
    <Gutter mark={look.mark} markColour={look.colour}>
      <Text color={look.colour} dimColor={tone === 'info'}>
        {wrapPlainText(text, width)}
      </Text>
    </Gutter>
  );
}

/** How a turn ended, when it did not simply complete or ask. */
export function TurnEndLine({ status, message }: { status: TurnStatus; message?: string }) {
  const failed = status === 'failed';
  const mark = failed ? glyph.error : status === 'canceled' ? glyph.canceled : glyph.warning;
  const tint = failed ? colour.error : colour.warning;
  return (
    <Gutter mark={mark} markColour={tint}>
      <Text color={tint}>
        {status}
        {message ? `: ${message}` : ''}
      </Text>
    </Gutter>
  );
}
