import * as edit from './editor-state.js';
import type { EditorState } from './editor-state.js';
import type { Keypress } from './parse-keys.js';

/** What a keypress can do to the chat; the hook wires these to state. */
export interface ChatKeyContext {
  /** The line as it is now, including keys handled earlier in the same chunk of input. */
  editor(): EditorState;
  running: boolean;
  /** The running turn was asked to stop and has not yet. */
  canceling: boolean;
  /** Ctrl+C was just pressed on an idle prompt: the next one quits. */
  quitArmed: boolean;
  menu: {
    chosen(text: string): { name: string; usage?: string } | undefined;
    picked(text: string): boolean;
    isOpen(text: string): boolean;
    move(text: string, direction: -1 | 1): void;
    dismiss(text: string): void;
    tab(text: string): string | undefined;
  };
  /** Lines waiting for the turn to end (use-message-queue.ts). */
  queue: {
    size(): number;
    /** Esc: the newest line leaves the queue. */
    removeLast(): void;
    /** ↑ on an empty line: the newest line leaves the queue for the input, to be edited and queued again. */
    editLast(): void;
  };
  /** The line is an entry recalled from the history, unchanged: ↑↓ keep walking the history. */
  recalled(): boolean;
  change(update: (state: EditorState) => EditorState): void;
  setText(text: string): void;
  vertical(direction: -1 | 1): void;
  /** Empties the line, keeping its text in the history. */
  stash(text: string): void;
  submit(text: string): void;
  cancel(): void;
  /** Esc on a running turn: cancels it, unless the chat asks for a second Esc first (a goal keeps the floor). */
  cancelByEscape?(): void;
  quit(): void;
  armQuit(): void;
  redraw(): void;
}

function onEnter(ctx: ChatKeyContext): void {
  const { text, cursor } = ctx.editor();
  // A backslash before Enter asks for a new line, as in a shell.
  if (text.endsWith('\\') && cursor === text.length) {
    ctx.setText(`${text.slice(0, -1)}\n`);
    return;
  }
  const chosen = ctx.menu.picked(text) ? ctx.menu.chosen(text) : undefined;
  // With the menu open, Enter takes the highlighted command (`/he` runs /help); a bare `/` runs
  // nothing unless the person moved to a command.
  ctx.submit(chosen !== undefined && `/${chosen.name}`.toLowerCase() !== text.trim().toLowerCase() ? `/${chosen.name}` : text);
}

function onControl(letter: string, ctx: ChatKeyContext): void {
  const editor = ctx.editor();
  switch (letter) {
    case 'c':
      // A second Ctrl+C while a turn will not stop quits all the same. A cancel leaves the
      // queue as it is: its lines go once the canceled turn has ended, as after any turn.
      if (ctx.running && ctx.canceling) ctx.quit();
      else if (ctx.running) ctx.cancel();
      else if (ctx.quitArmed) ctx.quit();
      else {
        if (editor.text !== '') ctx.stash(editor.text);
        ctx.armQuit();
      }
      return;
    case 'd':
      if (editor.text === '') ctx.quit();
      else ctx.change(edit.deleteForward);
      return;
    case 'a':
      return ctx.change(edit.moveLineStart);
    case 'e':
      return ctx.change(edit.moveLineEnd);
    case 'b':
      return ctx.change(edit.moveLeft);
    case 'f':
      return ctx.change(edit.moveRight);
    case 'w':
      return ctx.change(edit.deleteWordBackward);
    case 'u':
      return ctx.change(edit.deleteToLineStart);
    case 'k':
      return ctx.change(edit.deleteToLineEnd);
    case 'p':
      return ctx.vertical(-1);
    case 'n':
      return ctx.vertical(1);
    case 'l':
      return ctx.redraw();
    default:
      return;
  }
}

/** The key map of the chat input: editing, history, completion, cancel and quit. */
export function handleChatKey(key: Keypress, ctx: ChatKeyContext): void {
  switch (key.kind) {
    case 'text':
    case 'paste':
      return ctx.change((state) => edit.insertText(state, key.text));
    case 'ctrl':
      return onControl(key.letter, ctx);
    case 'meta':
      if (key.char === 'b') ctx.change(edit.moveWordLeft);
      else if (key.char === 'f') ctx.change(edit.moveWordRight);
      else if (key.char === 'd') ctx.change(edit.deleteWordForward);
      return;
    case 'key':
      break;
  }
  const word = key.ctrl || key.meta;
  const { text } = ctx.editor();
  switch (key.name) {
    case 'enter':
      if (key.meta) return ctx.change((state) => edit.insertText(state, '\n'));
      return onEnter(ctx);
    case 'newline':
      return ctx.change((state) => edit.insertText(state, '\n'));
    case 'escape':
      // The nearest thing first: the open menu, then the newest queued line, then the turn.
      if (ctx.menu.isOpen(text)) ctx.menu.dismiss(text);
      else if (text === '' && ctx.queue.size() > 0) ctx.queue.removeLast();
      else if (ctx.running) (ctx.cancelByEscape ?? ctx.cancel)();
      return;
    case 'tab': {
      const completed = ctx.menu.tab(text);
      if (completed !== undefined) ctx.setText(completed);
      return;
    }
    case 'up':
    case 'down': {
      const direction = key.name === 'up' ? -1 : 1;
      if (direction < 0 && text === '' && ctx.queue.size() > 0) return ctx.queue.editLast();
      // A command recalled from the history opens the menu, but the arrows walk on past it.
      if (ctx.menu.isOpen(text) && !ctx.recalled()) ctx.menu.move(text, direction);
      else ctx.vertical(direction);
      return;
    }
    case 'left':
      return ctx.change(word ? edit.moveWordLeft : edit.moveLeft);
    case 'right':
      return ctx.change(word ? edit.moveWordRight : edit.moveRight);
    case 'home':
      return ctx.change(edit.moveLineStart);
    case 'end':
      return ctx.change(edit.moveLineEnd);
    case 'backspace':
      return ctx.change(word ? edit.deleteWordBackward : edit.deleteBackward);
    case 'delete':
      return ctx.change(word ? edit.deleteWordForward : edit.deleteForward);
    default:
      return;
  }
}
