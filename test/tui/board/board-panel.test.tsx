import { afterEach, describe, expect, it, vi } from 'vitest';
import { frameWith } from '../../helpers/ink-frames.js';
import { cleanup, render } from 'ink-testing-library';
import type { SharedBoard } from '../../../src/augments/board/shared-state.js';
import type { KernelEvent } from '../../../src/kernel/events.js';
import { BoardPanel, LiveBoardPanel, boardPanelRows } from '../../../src/hosts/tui/board/board-panel.js';
import { boardAfterEvent, type BoardSource } from '../../../src/hosts/tui/board/board-events.js';

afterEach(() => cleanup());

const BOARD: SharedBoard = {
  queue: { owner: 'person', text: 'review the docs' },
  progress: { owner: 'agent', text: '' },
  notes: { owner: 'both', text: 'line one\nline two' },
};

/** A conversation's event stream and shared state, driven by the test. */
function fakeSource(board: SharedBoard | undefined): BoardSource & { send(event: KernelEvent): void; listeners: number } {
  const listeners = new Set<(event: KernelEvent) => void>();
  return {
    sharedState: () => (board ? { board } : undefined),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    send: (event) => listeners.forEach((listener) => listener(event)),
    get listeners() {
      return listeners.size;
    },
  };
}

describe('BoardPanel', () => {
  it('one row a line: name, owner mark, text flattened; an empty line says so', () => {
    const frame = render(<BoardPanel board={BOARD} />).lastFrame();
    expect(frame?.split('\n')).toEqual(['queue    you   review the docs', 'progress agent (empty)', 'notes    both  line one line two']);
  });

  it('cuts each row to the width it is given', () => {
    const long = { queue: { owner: 'person' as const, text: 'a very long request that will not fit in a narrow terminal at all' } };
    const frame = render(<BoardPanel board={long} width={30} />).lastFrame() ?? '';
    expect(frame).toBe('queue you   a very long reque…');
    expect(frame).toHaveLength(30);
  });

  it('cuts a long name to its column', () => {
    const frame = render(<BoardPanel board={{ 'a-really-long-line-name': { owner: 'agent', text: 'x' } }} />).lastFrame();
    expect(frame).toBe('a-really-long-l… agent x');
  });

  it('draws nothing for an empty board', () => {
    expect(render(<BoardPanel board={{}} />).lastFrame()).toBe('');
  });

  it('takes a row a line plus the blank row above it, which the live area leaves free', () => {
    expect(
      render(<BoardPanel board={BOARD} marginTop={1} />)
        .lastFrame()
        ?.split('\n'),
    ).toHaveLength(boardPanelRows(BOARD));
    expect(boardPanelRows(BOARD)).toBe(4);
    expect(boardPanelRows({})).toBe(0);
    expect(boardPanelRows(undefined)).toBe(0);
  });
});

describe('boardAfterEvent', () => {
  it('a snapshot replaces the board; a delta patches one line; board.changed sets the text; other events change nothing', () => {
    const fromSnapshot = boardAfterEvent(undefined, { type: 'STATE_SNAPSHOT', snapshot: { board: BOARD } });
    expect(fromSnapshot).toEqual(BOARD);
    const patched = boardAfterEvent(fromSnapshot, {
      type: 'STATE_DELTA',
      delta: [{ op: 'add', path: '/board/progress', value: { owner: 'agent', text: '1 of 3', by: 'agent', at: 'now' } }],
    });
    expect(patched?.progress).toEqual({ owner: 'agent', text: '1 of 3', by: 'agent', at: 'now' });
    expect(Object.keys(patched ?? {})).toEqual(['queue', 'progress', 'notes']);
    const changed = boardAfterEvent(patched, { type: 'CUSTOM', name: 'board.changed', value: { line: 'queue', text: 'next', by: 'person' } });
    expect(changed?.queue).toEqual({ owner: 'person', text: 'next', by: 'person' });
    const text: KernelEvent = { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'hi' };
    expect(boardAfterEvent(changed, text)).toBe(changed);
    expect(boardAfterEvent(changed, { type: 'STATE_SNAPSHOT', snapshot: { other: 1 } })).toBe(changed);
    expect(boardAfterEvent(changed, { type: 'STATE_DELTA', delta: [{ op: 'add', path: '/other', value: 1 }] })).toBe(changed);
    expect(boardAfterEvent(changed, { type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/board/notes/text', value: 'field patch' }] })?.notes.text).toBe(
      'field patch',
    );
    expect(boardAfterEvent(changed, { type: 'STATE_DELTA', delta: [{ op: 'remove', path: '/board/notes' }] })).not.toHaveProperty('notes');
  });

  it('a value that is not a board line leaves the line as it was', () => {
    expect(boardAfterEvent(BOARD, { type: 'STATE_DELTA', delta: [{ op: 'add', path: '/board/queue', value: 'just text' }] })).toEqual(BOARD);
  });
});

describe('LiveBoardPanel (useBoard)', () => {
  it('shows the board at once and follows deltas, board.changed and snapshots', async () => {
    const source = fakeSource(BOARD);
    const { lastFrame } = render(<LiveBoardPanel source={source} />);
    await frameWith(lastFrame, (f) => f.includes('review the docs'));
    expect(source.listeners).toBe(1);

    source.send({ type: 'STATE_DELTA', delta: [{ op: 'add', path: '/board/progress', value: { owner: 'agent', text: 'building', by: 'agent' } }] });
    await frameWith(lastFrame, (f) => f.includes('progress agent building'));

    source.send({ type: 'CUSTOM', name: 'board.changed', value: { line: 'queue', text: 'ship it', by: 'person' } });
    await frameWith(lastFrame, (f) => f.includes('queue    you   ship it'));

    source.send({ type: 'STATE_SNAPSHOT', snapshot: { board: { only: { owner: 'both', text: 'fresh' } } } });
    const frame = await frameWith(lastFrame, (f) => f.includes('fresh'));
    expect(frame).toBe('\nonly both  fresh');
  });

  it('draws nothing when the agent has no board, and stops listening when unmounted', async () => {
    const source = fakeSource(undefined);
    const { lastFrame, unmount } = render(<LiveBoardPanel source={source} />);
    await vi.waitFor(() => expect(source.listeners).toBe(1));
    expect(lastFrame()).toBe('');
    unmount();
    expect(source.listeners).toBe(0);
  });

  it('a new source (/clear opens a new conversation) is read afresh', async () => {
    const first = fakeSource(BOARD);
    const second = fakeSource({ queue: { owner: 'person', text: 'new session' } });
    const { lastFrame, rerender } = render(<LiveBoardPanel source={first} />);
    await frameWith(lastFrame, (f) => f.includes('review the docs'));
    rerender(<LiveBoardPanel source={second} />);
    await frameWith(lastFrame, (f) => f.includes('new session'));
    expect(first.listeners).toBe(0);
    expect(second.listeners).toBe(1);
  });
});
