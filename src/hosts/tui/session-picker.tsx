import { Box, Text, render, useApp, useStdout } from 'ink';
import { useEffect, useState } from 'react';
import type { SessionSummary } from '../../session/session-summary.js';
import { sessionRows } from '../session-rows.js';
import { usePalette } from './palette.js';
import { PaletteProvider, paletteFor } from './palette.js';
import { useKeys } from './use-keys.js';

/** Two spaces between a row's columns, as a string: a formatter may fold spaces in JSX text. */
const GAP = '  ';

export interface SessionPickerProps {
  sessions: readonly SessionSummary[];
  onPick(sessionId: string | undefined): void;
  /** Rows shown at once; the list scrolls past them. */
  max?: number;
}

/** `--resume` without an id: the folder's sessions, newest first; ↑↓ move, Enter opens, Esc leaves. */
export function SessionPicker({ sessions, onPick, max = 12 }: SessionPickerProps) {
  const { exit } = useApp();
  const { stdout } = useStdout();
  const colours = usePalette();
  const [selected, setSelected] = useState(0);
  const [done, setDone] = useState(false);
  const choose = (id: string | undefined) => {
    onPick(id);
    setDone(true);
  };
  // The list is taken off the screen before the chat draws in its place.
  useEffect(() => {
    if (done) exit();
  }, [done, exit]);
  useKeys((key) => {
    if (key.kind === 'ctrl' && (key.letter === 'c' || key.letter === 'd')) return choose(undefined);
    if (key.kind === 'ctrl' && (key.letter === 'p' || key.letter === 'n')) {
      return setSelected((at) => (at + (key.letter === 'p' ? -1 : 1) + sessions.length) % sessions.length);
    }
    if (key.kind !== 'key') return;
    if (key.name === 'escape') return choose(undefined);
    if (key.name === 'enter') return choose(sessions[selected]?.id);
    if (key.name === 'up' || key.name === 'down') setSelected((at) => (at + (key.name === 'up' ? -1 : 1) + sessions.length) % sessions.length);
  });
  const rows = sessionRows(sessions, (stdout.columns || 100) - 4);
  if (done) return null;
  const first = Math.min(Math.max(0, selected - max + 1), Math.max(0, rows.length - max));
  return (
    <Box flexDirection="column">
      <Text bold>Resume a session</Text>
      <Text dimColor>↑↓ to move · Enter opens it · Esc leaves</Text>
      <Box flexDirection="column" marginTop={1}>
        {rows.slice(first, first + max).map((row, index) => {
          const on = first + index === selected;
          return (
            <Text key={row.id} wrap="truncate-end" color={on ? colours.accent : undefined} bold={on}>
              {on ? '› ' : '  '}
              {row.id}
              {GAP}
              <Text dimColor={!on}>{row.when}</Text>
              {GAP}
              <Text color={row.ending.startsWith('waiting') ? colours.question : undefined}>{row.ending}</Text>
              {GAP}
              {row.message}
            </Text>
          );
        })}
      </Box>
      {rows.length > max && <Text dimColor>{rows.length} sessions · the list scrolls</Text>}
    </Box>
  );
}

/** Shows the picker until the person chooses; resolves to the session id, or undefined when they left. */
export async function pickSession(
  sessions: readonly SessionSummary[],
  streams: { stdin: NodeJS.ReadStream; stdout: NodeJS.WriteStream; stderr: NodeJS.WriteStream },
): Promise<string | undefined> {
  let picked: string | undefined;
  const instance = render(
    <PaletteProvider palette={paletteFor(process.env)}>
      <SessionPicker sessions={sessions} onPick={(id) => (picked = id)} />
    </PaletteProvider>,
    { ...streams, exitOnCtrlC: false, patchConsole: false },
  );
  await instance.waitUntilExit();
  instance.cleanup();
  return picked;
}
