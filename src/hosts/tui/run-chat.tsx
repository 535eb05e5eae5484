import { render } from 'ink';
import type { Conversation } from '../../kernel/conversation.js';
import { AboveFrameProvider, createAboveFrame } from './above-frame.js';
import { App } from './app.js';
import type { DisplayItem } from './display-items.js';
import { historyFromSession, type SessionHistory } from './history-from-session.js';
import { inputHistoryPath, loadInputHistory, saveInputHistoryEntry } from './input-history.js';
import { loadMarkdownLexer } from './markdown/markdown-blocks.js';
import { retypeCommand, type RetypeContext } from '../retype-command.js';
import type { SessionHandle } from '../../session/session.js';
import { PaletteProvider, paletteFor } from './palette.js';
import { transcriptText } from './transcript-rows/transcript-text.js';
import { BRACKETED_PASTE_OFF, BRACKETED_PASTE_ON } from './theme.js';
import { headerOf } from './use-conversation.js';
import type { WarningFeed } from './warning-feed.js';

export interface RunChatOptions {
  conversation: Conversation;
  warnings: WarningFeed;
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  retype: RetypeContext;
}

/** `auggy run <dir> --session <id>` plus this run's model flags, as the person types it from here. */
export function resumeCommand(retype: RetypeContext, sessionId: string): string {
  return retypeCommand(retype, ['--session', sessionId]);
}

/**
 * How much of a resumed session is printed at start. Printing costs about a millisecond per
 * item, and terminals keep a few thousand lines of scrollback anyway; the log keeps the rest.
 */
export const RESUME_SHOWN_ITEMS = 200;

/** The first screen: the header, then, for a resumed session, the latest of what was said. */
export function openingItems(conversation: Conversation, shown = RESUME_SHOWN_ITEMS): SessionHistory {
  const header: DisplayItem = { kind: 'header', id: 'i1', ...headerOf(conversation) };
  if (!conversation.session.resumed) return { items: [header], nextId: 2 };
  const history = historyFromSession(conversation.session.entries().entries, 3);
  const hidden = Math.max(0, history.items.length - shown);
  if (hidden === 0) return { ...history, items: [header, ...history.items] };
  const note: DisplayItem = {
    kind: 'system',
    id: 'i2',
    tone: 'info',
    // The session's log file, or under --store the database (no password) and the session id.
    text: `… ${hidden} earlier items are not shown; the whole session is in ${conversation.session.location}`,
  };
  return { ...history, items: [header, note, ...history.items.slice(hidden)] };
}

/**
 * How Ink draws the chat's frame: at most 20 frames a second. Every frame is laid out and turned
 * into text whole, so while a reply streams the frame rate is most of the chat's CPU; 20 a second
 * still reads as smooth, and a key typed on a still screen is drawn at once (Ink's throttle lets
 * the first change through). Not Ink's incrementalRendering: beside text printed above the frame it
 * left rows of an earlier frame on screen (a resumed chat showed its "starting…" input line twice).
 */
const CHAT_FRAMES = { maxFps: 20 } as const;

/** Draws the chat until the person quits; restores the terminal whatever happens. */
export async function runChat({ conversation, warnings, stdin, stdout, stderr, retype }: RunChatOptions): Promise<number> {
  const agentDir = conversation.agent.dir;
  const historyFile = inputHistoryPath(agentDir);
  let historyWarned = false;
  // One save after the other: each reads the file the one before it wrote.
  let historySaved: Promise<void> = Promise.resolve();
  const saveHistory = (entry: string) => {
    historySaved = historySaved.then(async () => {
      const { error } = await saveInputHistoryEntry(historyFile, entry);
      if (error && !historyWarned) warnings.warn(error);
      historyWarned ||= error !== undefined;
    });
  };
  let lastSession: Pick<SessionHandle, 'id' | 'entries'> = conversation.session;
  const resumeHint = (sessionId: string) => resumeCommand(retype, sessionId);

  stdout.write(BRACKETED_PASTE_ON);
  const restore = () => stdout.write(BRACKETED_PASTE_OFF);
  process.once('exit', restore);
  const palette = paletteFor(process.env);
  const opening = openingItems(conversation);
  // A new chat opens with its header alone, which has no markdown: the lexer loads after the
  // first frame (below). A resumed one prints replies first, so it loads the lexer before that.
  if (opening.items.length > 1) await loadMarkdownLexer();
  // The opening transcript goes out before Ink draws anything, so its first frame has the input under it.
  stdout.write(transcriptText(opening.items, stdout.columns || 80, palette));
  const aboveFrame = createAboveFrame(stdout);
  const instance = render(
    <PaletteProvider palette={palette}>
      <AboveFrameProvider value={aboveFrame}>
        <App
          {...opening}
          openingPrinted
          conversation={conversation}
          warnings={warnings}
          history={loadInputHistory(historyFile)}
          saveHistory={saveHistory}
          resumeHint={resumeHint}
          onQuit={(session) => (lastSession = session)}
        />
      </AboveFrameProvider>
    </PaletteProvider>,
    { stdin, stdout, stderr, exitOnCtrlC: false, patchConsole: true, ...CHAT_FRAMES, onRender: aboveFrame.onRender },
  );
  // Loaded before anything else runs: no reply can arrive before a later turn of the event loop.
  loadMarkdownLexer().catch((error: unknown) => warnings.warn(`replies cannot be drawn: ${error instanceof Error ? error.message : String(error)}`));
  try {
    await instance.waitUntilExit();
  } catch (error) {
    stderr.write(`auggy: the chat stopped: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    restore();
    process.off('exit', restore);
  }
  // A chat where nothing was said has nothing to resume. Asked of the session, not its folder:
  // a session kept in a store has no events.jsonl.
  if (lastSession.entries().entries.some((entry) => entry.kind === 'user')) stdout.write(`Resume this chat with: ${resumeHint(lastSession.id)}\n`);
  return 0;
}
