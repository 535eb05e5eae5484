import { Box, Text, render, useApp, useStdout } from 'ink';
import { useEffect, useRef, useState } from 'react';
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
  // Keys that arrive together (Down then Enter in one read) are handled before React draws
  // again: each reads the selection the one before it left, not the one last drawn.
  const current = useRef({ selected: 0, done: false });
  const move = (step: number) => {
    current.current.selected = (current.current.selected + step + sessions.length) % sessions.length;
    setSelected(current.current.selected);
  };
  const choose = (id: string | undefined) => {
    current.current.done = true;
    onPick(id);
    setDone(true);
  };
  // The list is taken off the screen before the chat draws in its place.
  useEffect(() => {
    if (done) exit();
  }, [done, exit]);
  useKeys((key) => {
    // What follows the key that chose, in the same read, is not the picker's.
    if (current.current.done) return;
    if (key.kind === 'ctrl' && (key.letter === 'c' || key.letter === 'd')) return choose(undefined);
    if (key.kind === 'ctrl' && (key.letter === 'p' || key.letter === 'n')) return move(key.letter === 'p' ? -1 : 1);
    if (key.kind !== 'key') return;
    if (key.name === 'escape') return choose(undefined);
    if (key.name === 'enter') return choose(sessions[current.current.selected]?.id);
    if (key.name === 'up' || key.name === 'down') move(key.name === 'up' ? -1 : 1);
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
