import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import type { TurnStatus } from '../../kernel/events.js';
import type { SystemTone } from './display-items.js';
import { Markdown } from './markdown/markdown-view.js';
import { usePalette, type Palette } from './palette.js';
import { glyph } from './theme.js';
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
  const colour = usePalette();
  const width = useGutterTextWidth(GUTTER_WIDTH);
  return (
    <Gutter mark={glyph.prompt} markColour={colour.accent} marginTop={1}>
      <Text dimColor>{wrapPlainText(text, width)}</Text>
    </Gutter>
  );
}

/**
 * Assistant text, drawn as markdown; a `continued` piece carries on the message above without a
 * new marker (a long reply is printed block by block as it streams, so each piece is a block).
 */
export function AssistantMessage({ text, continued }: { text: string; continued: boolean }) {
  return (
    <Gutter mark={continued ? ' ' : glyph.assistant} marginTop={1}>
      {text.trim() === '' ? <Text> </Text> : <Markdown text={text} />}
    </Gutter>
  );
}

function toneLook(tone: SystemTone, colour: Palette): { mark: string; colour?: string } {
  if (tone === 'warning') return { mark: glyph.warning, colour: colour.warning };
  if (tone === 'error') return { mark: glyph.error, colour: colour.error };
  return { mark: ' ' };
}

export function SystemLine({ text, tone }: { text: string; tone: SystemTone }) {
  const look = toneLook(tone, usePalette());
  const width = useGutterTextWidth(GUTTER_WIDTH);
  return (
    <Gutter mark={look.mark} markColour={look.colour}>
      <Text color={look.colour} dimColor={tone === 'info'}>
        {wrapPlainText(text, width)}
      </Text>
    </Gutter>
  );
}

/** `failed: the provider refused the key`; a message that already names the status is said alone. */
export function turnEndText(status: TurnStatus, message?: string): string {
  if (!message) return status;
  const word = status === 'budget-exhausted' ? 'stopped' : status;
  return message.toLowerCase().startsWith(word) ? message : `${status}: ${message}`;
}

/** How a turn ended, when it did not simply complete or ask. */
export function TurnEndLine({ status, message }: { status: TurnStatus; message?: string }) {
  const colour = usePalette();
  const failed = status === 'failed';
  const mark = failed ? glyph.error : status === 'canceled' ? glyph.canceled : glyph.warning;
  const tint = failed ? colour.error : colour.warning;
  return (
    <Gutter mark={mark} markColour={tint}>
      <Text color={tint}>{turnEndText(status, message)}</Text>
    </Gutter>
  );
}
