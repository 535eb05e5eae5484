import { Box, Text, useStdout } from 'ink';
import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { CommandList } from './command-list.js';
import { InputLine } from './input-line.js';
import { BoardPanel, boardPanelRows } from './board/board-panel.js';
import { useBoard } from './board/use-board.js';
import { FieldQuestionView } from './questionnaire/field-question-view.js';
import { WaitingHint } from './waiting-hint.js';
import { QueuedMessages } from './queued-messages.js';
import { queueRows, workingHint } from './use-message-queue.js';
import { StatusLine } from './status-line.js';
import { TranscriptItem } from './transcript-item.js';
import { PrintedTranscript } from './printed-transcript.js';
import { fitLiveItems, screenBudget } from './live-window.js';
import { usePalette } from './palette.js';
import { liveItems } from './transcript-state.js';
import { useChat, type ChatSetup } from './use-chat.js';

export interface AppProps extends ChatSetup {
  /** Where the finished transcript is printed; above Ink's live frame when absent. */
  print?: (text: string) => void;
  /** The items the chat opens with are printed already: run-chat writes them before Ink starts. */
  openingPrinted?: boolean;
}

// Shown once keys are read, so the invitation to type is never early.
const PLACEHOLDER = 'Type a message · / for commands';

/**
 * The chat screen, top to bottom: the printed transcript (each finished item drawn once), the
 * live part of the running turn, a slot for panels, the input, and the status line.
 */
export function App(props: AppProps) {
  const { controls, editor, menu, queue, notice, indicators, exiting, ready, questionnaire } = useChat(props);
  const { view } = controls;
  const board = useBoard(controls.conversation);
  const { stdout } = useStdout();
  // Set once, when the transcript the chat opens with has been printed.
  const [openingPrinted, setOpeningPrinted] = useState(props.openingPrinted === true);
  const opened = useCallback(() => setOpeningPrinted(true), []);
  // Everything is laid out to the terminal's width by the chat's own rows, printed or live.
  const width = stdout.columns || 80;
  // The live area and the input together stay within the terminal.
  const budget = screenBudget(stdout.rows, editor.state.text, menu.items.length);
  // Measured with the palette the frame draws with, so an item is laid out once for both; and
  // again only when the live part or the room for it changed, not for every key or notice.
  const palette = usePalette();
  const below = budget.below + boardPanelRows(board) + queueRows(queue.lines);
  const { live: liveEntries } = view.transcript;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the live entries are what liveItems reads.
  const live = useMemo(
    () => fitLiveItems(liveItems(view.transcript), { rows: stdout.rows, columns: width, below }, palette),
    [liveEntries, stdout.rows, width, below, palette],
  );
  const waiting = !view.running && view.lastTurn?.status === 'input-required';
  const printed = (
    <PrintedTranscript
      key={view.printKey}
      items={view.transcript.done}
      width={width}
      print={props.print}
      onPrinted={opened}
      alreadyPrinted={view.printKey === 0 && props.openingPrinted === true}
    />
  );
  // Same tree when quitting (a remounted transcript would print everything again), minus the input;
  // and at the start until the opening transcript is out, so the input is first drawn under it.
  if (exiting || !openingPrinted) return <Layout printed={printed} live={null} input={null} status={null} />;
  return (
    <Layout
      printed={printed}
      live={
        <>
          {live.hidden > 0 && <Text dimColor>… {live.hidden} more above</Text>}
          {live.items.map((item) => (
            <TranscriptItem key={item.id} item={item} />
          ))}
        </>
      }
      panel={board && <BoardPanel board={board} width={width} marginTop={1} />}
      queued={<QueuedMessages lines={queue.lines} questionOpen={questionnaire.question !== undefined} />}
      input={
        questionnaire.question ? (
          <FieldQuestionView question={questionnaire.question} input={questionnaire.input} />
        ) : (
          <>
            <InputLine
              text={editor.state.text}
              cursor={editor.state.cursor}
              maxLines={budget.inputLines}
              placeholder={ready ? (waiting ? 'Type your reply' : PLACEHOLDER) : 'starting…'}
            />
            {waiting && <WaitingHint />}
          </>
        )
      }
      below={<CommandList commands={menu.items} selected={menu.selected} />}
      status={
        <StatusLine
          running={view.running}
          startedAt={view.startedAt}
          lastTurn={view.lastTurn}
          personsTurn={questionnaire.question !== undefined}
          indicators={indicators}
          usage={view.usage}
          context={view.context}
          notice={notice}
          hint={workingHint({ queued: queue.lines.length, typing: editor.state.text !== '' })}
        />
      }
    />
  );
}

export interface LayoutProps {
  printed: ReactNode;
  live: ReactNode;
  /** Panels shown above the input, beside the run (the board, later). */
  panel?: ReactNode;
  /** What was sent during the turn and waits for its end, just above the input. */
  queued?: ReactNode;
  /** The input area; another input mode (a questionnaire) takes this place. */
  input: ReactNode;
  below?: ReactNode;
  status: ReactNode;
}

/** Where each part of the screen goes, so later panels and input modes slot in without reshuffling. */
export function Layout({ printed, live, panel, queued, input, below, status }: LayoutProps) {
  return (
    <Box flexDirection="column">
      {printed}
      {live}
      {panel}
      {input !== null && queued}
      {input !== null && (
        <Box marginTop={1} flexDirection="column" borderStyle="single" borderLeft={false} borderRight={false} borderDimColor>
          {input}
        </Box>
      )}
      {below}
      {status}
    </Box>
  );
}
