import { describe, expect, it } from 'vitest';
import { handleChatKey, type ChatKeyContext } from '../../src/hosts/tui/chat-keys.js';
import { editorWith, type EditorState } from '../../src/hosts/tui/editor-state.js';
import type { Keypress } from '../../src/hosts/tui/parse-keys.js';
import {
  MAX_QUEUED_ROWS,
  emptyQueue,
  enqueue,
  queueRows,
  takeFirst,
  takeLast,
  visibleQueue,
  workingHint,
  type QueueState,
} from '../../src/hosts/tui/use-message-queue.js';

const queueOf = (...texts: string[]): QueueState => texts.reduce(enqueue, emptyQueue);
const textsOf = (state: QueueState) => state.lines.map((line) => line.text);

describe('the queue of lines typed during a turn', () => {
  it('keeps the order typed, and each line its own id', () => {
    const state = queueOf('one', 'two', 'one');
    expect(textsOf(state)).toEqual(['one', 'two', 'one']);
    expect(new Set(state.lines.map((line) => line.id)).size).toBe(3);
  });

  it('gives the oldest line to send next, and the newest to Esc and ↑', () => {
    const state = queueOf('one', 'two', 'three');
    const first = takeFirst(state);
    expect(first.line?.text).toBe('one');
    expect(textsOf(first.state)).toEqual(['two', 'three']);
    const last = takeLast(state);
    expect(last.line?.text).toBe('three');
    expect(textsOf(last.state)).toEqual(['one', 'two']);
  });

  it('taking from an empty queue gives nothing and leaves it as it was', () => {
    expect(takeFirst(emptyQueue)).toEqual({ state: emptyQueue });
    expect(takeLast(emptyQueue)).toEqual({ state: emptyQueue });
  });

  it('a line removed and queued again goes after the others', () => {
    const { state } = takeLast(queueOf('one', 'two'));
    expect(textsOf(enqueue(enqueue(state, 'three'), 'two'))).toEqual(['one', 'three', 'two']);
  });

  it('shows the newest lines and counts the older ones in one row; the rows taken include the margin and the hint', () => {
    expect(queueRows([])).toBe(0);
    expect(queueRows(queueOf('one').lines)).toBe(3);
    const many = queueOf(...Array.from({ length: MAX_QUEUED_ROWS + 2 }, (_, index) => `line ${index}`)).lines;
    const { hidden, shown } = visibleQueue(many);
    expect(hidden).toBe(2);
    expect(shown.map((line) => line.text)).toEqual(many.slice(2).map((line) => line.text));
    expect(queueRows(many)).toBe(1 + MAX_QUEUED_ROWS + 1 + 1);
  });

  it("the status line's hint says what Enter and Esc do now", () => {
    expect(workingHint({ queued: 0, typing: false })).toBe('Esc to cancel');
    expect(workingHint({ queued: 0, typing: true })).toBe('Enter queues');
    expect(workingHint({ queued: 2, typing: true })).toBe('Enter queues');
    // Esc removes a queued line then: the hint names the other way to cancel.
    expect(workingHint({ queued: 2, typing: false })).toBe('Ctrl+C cancels');
  });
});

/** A chat key context that records what the keys asked for. */
function keyContext(options: { text?: string; running?: boolean; queued?: string[]; menuOpen?: boolean }) {
  let editor: EditorState = editorWith(options.text ?? '');
  const queued = [...(options.queued ?? [])];
  const did: string[] = [];
  const ctx: ChatKeyContext = {
    editor: () => editor,
    running: options.running ?? false,
    canceling: false,
    quitArmed: false,
    menu: {
      chosen: () => undefined,
      picked: () => false,
      isOpen: () => options.menuOpen === true,
      move: () => did.push('menu move'),
      dismiss: () => did.push('menu closed'),
      tab: () => undefined,
    },
    queue: {
      size: () => queued.length,
      removeLast: () => did.push(`removed ${queued.pop()}`),
      editLast: () => {
        editor = editorWith(queued.pop() ?? '');
        did.push(`editing ${editor.text}`);
      },
    },
    recalled: () => false,
    change: (update) => (editor = update(editor)),
    setText: (text) => (editor = editorWith(text)),
    vertical: (direction) => did.push(`history ${direction}`),
    stash: () => did.push('stash'),
    submit: (text) => did.push(`submit ${text}`),
    cancel: () => did.push('cancel'),
    quit: () => did.push('quit'),
    armQuit: () => did.push('arm quit'),
    redraw: () => did.push('redraw'),
  };
  return { ctx, did, queued };
}

const ESC: Keypress = { kind: 'key', name: 'escape', ctrl: false, meta: false };
const UP: Keypress = { kind: 'key', name: 'up', ctrl: false, meta: false };
const CTRL_C: Keypress = { kind: 'ctrl', letter: 'c' };

describe('the keys with lines queued', () => {
  it('Esc on an empty line removes the newest queued line, not the turn', () => {
    const { ctx, did, queued } = keyContext({ running: true, queued: ['one', 'two'] });
    handleChatKey(ESC, ctx);
    expect(did).toEqual(['removed two']);
    expect(queued).toEqual(['one']);
  });

  it('Esc with something typed cancels the turn as before, the queue kept', () => {
    const { ctx, did, queued } = keyContext({ running: true, text: 'half typed', queued: ['one'] });
    handleChatKey(ESC, ctx);
    expect(did).toEqual(['cancel']);
    expect(queued).toEqual(['one']);
  });

  it('Esc with the queue empty cancels the turn', () => {
    const { ctx, did } = keyContext({ running: true });
    handleChatKey(ESC, ctx);
    expect(did).toEqual(['cancel']);
  });

  it('Esc closes the open menu first, during a turn too', () => {
    const { ctx, did } = keyContext({ running: true, text: '/', queued: ['one'], menuOpen: true });
    handleChatKey(ESC, ctx);
    expect(did).toEqual(['menu closed']);
  });

  it('Ctrl+C cancels the turn and leaves the queue', () => {
    const { ctx, did, queued } = keyContext({ running: true, queued: ['one'] });
    handleChatKey(CTRL_C, ctx);
    expect(did).toEqual(['cancel']);
    expect(queued).toEqual(['one']);
  });

  it('↑ on an empty line takes the newest queued line into the input; with text typed it walks the history', () => {
    const empty = keyContext({ running: true, queued: ['one', 'two'] });
    handleChatKey(UP, empty.ctx);
    expect(empty.did).toEqual(['editing two']);
    expect(empty.ctx.editor().text).toBe('two');
    expect(empty.queued).toEqual(['one']);
    handleChatKey(UP, empty.ctx);
    expect(empty.did.at(-1)).toBe('history -1');

    const none = keyContext({ running: true });
    handleChatKey(UP, none.ctx);
    expect(none.did).toEqual(['history -1']);
  });
});
