import { describe, expect, it } from 'vitest';
import { boardAugment } from '../../../src/augments/board/augment.js';
import { applyBoardPatch, parseSharedBoard, type SharedBoard } from '../../../src/augments/board/shared-state.js';
import { findAugmentFactory } from '../../../src/augments/registry.js';
import type { KernelEvent } from '../../../src/kernel/events.js';
import { boardFolder, callTool, command, loadFolder, savedBoard, startBoard, systemLines, tool } from './harness.js';

const deltas = (events: KernelEvent[]) => events.flatMap((event) => (event.type === 'STATE_DELTA' ? [event.delta] : []));
const changes = (events: KernelEvent[]) => events.flatMap((event) => (event.type === 'CUSTOM' && event.name === 'board.changed' ? [event.value] : []));
const shared = (state: Record<string, unknown> | undefined): SharedBoard => parseSharedBoard(state?.board) ?? {};
const texts = (board: SharedBoard) => Object.fromEntries(Object.entries(board).map(([name, line]) => [name, line.text]));

describe('the board augment', () => {
  it('is registered as type board with its own skill', () => {
    expect(findAugmentFactory('board')).toBe(boardAugment);
    expect(boardAugment.skill).toBe('board');
  });

  describe("the agent's side", () => {
    it('board_read returns every line with its owner, whether the agent may write it, and the text', async () => {
      const h = await startBoard();
      const result = await callTool(h, 'board_read', {});
      expect(result.isError).toBeUndefined();
      expect(JSON.parse(result.content)).toEqual({
        lines: [
          { line: 'queue', owner: 'person', youCanWrite: false, text: '' },
          { line: 'progress', owner: 'agent', youCanWrite: true, text: '' },
          { line: 'notes', owner: 'both', youCanWrite: true, text: 'remember the changelog' },
        ],
      });
    });

    it('board_write sets its own and shared lines; the description says which are whose', async () => {
      const h = await startBoard();
      expect(tool(h, 'board_write').description).toContain('Lines you may write: progress, notes. Lines that belong to the person (read only for you): queue.');
      expect(await callTool(h, 'board_write', { line: 'progress', text: '2 of 5' })).toEqual({ content: 'Line "progress" set; the person sees it now.' });
      expect(await callTool(h, 'board_write', { line: 'notes', text: '' })).toEqual({ content: 'Line "notes" cleared.' });
      expect(savedBoard(h.session)?.lines).toMatchObject({ progress: { text: '2 of 5', by: 'agent' }, notes: { text: '', by: 'agent' } });
    });

    it("writing the person's line is a tool error naming the line and its owner; nothing changes", async () => {
      const h = await startBoard();
      const result = await callTool(h, 'board_write', { line: 'queue', text: 'I decide the queue' });
      expect(result).toEqual({
        isError: true,
        content:
          'board_write refused: line "queue" belongs to the person (owner: person): you can read it but not write it; lines you can write: progress, notes.',
      });
      expect(savedBoard(h.session)).toBeUndefined();
      expect(h.events).toEqual([]);
    });

    it('an unknown line and text over 4000 characters are tool errors the model can read', async () => {
      const h = await startBoard();
      const unknown = await callTool(h, 'board_write', { line: 'todo', text: 'x' });
      expect(unknown.isError).toBe(true);
      expect(unknown.content).toBe('board_write refused: the board has no line "todo"; its lines are queue (person), progress (agent), notes (both).');
      const long = await callTool(h, 'board_write', { line: 'progress', text: 'x'.repeat(4001) });
      expect(long.isError).toBe(true);
      expect(long.content).toContain('text must be at most 4000 characters');
      const missing = await callTool(h, 'board_write', { text: 'x' });
      expect(missing.isError).toBe(true);
      expect(missing.content).toMatch(/^Invalid arguments for board_write: .*line/s);
    });

    it('the prompt block shows every line with whose it is, quoting the text', async () => {
      const h = await startBoard();
      await callTool(h, 'board_write', { line: 'progress', text: 'step 1 done\nstep 2 next' });
      const block = h.board.promptBlock?.() ?? '';
      expect(block).toContain("## queue (the person's: read it, do not write it)\nWhat the person wants next.\n> (empty)");
      expect(block).toContain('## progress (yours: only you write it, last written by you)\n> step 1 done\n> step 2 next');
      expect(block).toContain('## notes (shared: you and the person both write it)\n> remember the changelog');
    });
  });

  describe("the person's side", () => {
    it('/board shows every line, whole, with owner marks; it may run during a turn', async () => {
      const h = await startBoard();
      const board = h.board.commands?.().find((c) => c.name === 'board');
      expect(board?.duringTurn).toBe(true);
      await callTool(h, 'board_write', { line: 'progress', text: 'two\nrows' });
      expect(await command(h, '')).toEqual({
        lines: [
          'Board (you can write queue, notes):',
          '  queue     you    (empty)',
          '  progress  agent  two',
          '                   rows',
          '  notes     both   remember the changelog',
        ],
      });
    });

    it("/board set and /board clear change the person's lines", async () => {
      const h = await startBoard();
      expect(await command(h, 'set queue  review the docs, then release ')).toEqual({ lines: ['queue set; the agent sees it at its next step.'] });
      expect(savedBoard(h.session)?.lines.queue).toMatchObject({ text: 'review the docs, then release', by: 'person' });
      expect(await command(h, 'clear notes')).toEqual({ lines: ['notes cleared.'] });
      expect(savedBoard(h.session)?.lines.notes).toMatchObject({ text: '', by: 'person' });
    });

    it("writing the agent's line is refused with a message naming the line and its owner", async () => {
      const h = await startBoard();
      expect(await command(h, 'set progress all done')).toEqual({
        isError: true,
        lines: ['Not written: line "progress" belongs to the agent (owner: agent): you can read it but not write it; lines you can write: queue, notes.'],
      });
      expect(await command(h, 'clear progress')).toMatchObject({ isError: true, lines: [expect.stringContaining('belongs to the agent (owner: agent)')] });
      expect(savedBoard(h.session)).toBeUndefined();
    });

    it('says what is missing from a malformed command', async () => {
      const h = await startBoard();
      expect(await command(h, 'set')).toEqual({ isError: true, lines: ['Say which line: /board set <line> <text>.'] });
      expect(await command(h, 'set queue')).toEqual({ isError: true, lines: ['Give the text: /board set queue <text> (/board clear queue empties it).'] });
      expect(await command(h, 'clear')).toEqual({ isError: true, lines: ['Say which line: /board clear <line>.'] });
      expect((await command(h, 'clear queue now')).isError).toBe(true);
      expect(await command(h, 'show')).toEqual({
        isError: true,
        lines: ['/board does not take "show": use /board, /board set <line> <text>, /board clear <line>.'],
      });
      expect((await command(h, 'set todo x')).lines[0]).toBe(
        'Not written: the board has no line "todo"; its lines are queue (person), progress (agent), notes (both).',
      );
    });

    it("--board line=text sets a person line; the agent's line, an unknown line or no = is refused", async () => {
      const h = await startBoard();
      expect(await h.board.hostInput?.('board', 'queue=ship v2 = final')).toEqual({ ok: true, message: '' });
      expect(savedBoard(h.session)?.lines.queue.text).toBe('ship v2 = final');
      expect(await h.board.hostInput?.('board', 'progress=done')).toEqual({
        ok: false,
        message: '--board progress: line "progress" belongs to the agent (owner: agent): you can read it but not write it; lines you can write: queue, notes',
        reason: 'line "progress" belongs to the agent (owner: agent): you can read it but not write it; lines you can write: queue, notes',
      });
      expect(await h.board.hostInput?.('board', 'nope=x')).toMatchObject({ ok: false, message: expect.stringContaining('the board has no line "nope"') });
      expect(await h.board.hostInput?.('board', 'queue')).toMatchObject({ ok: false, message: expect.stringContaining('--board takes line=text') });
      expect(await h.board.hostInput?.('event', 'Go')).toBeUndefined();
    });
  });

  describe('shared state and events', () => {
    it('sharedState is { board: { line: { owner, text } } } in the configured order; snapshot matches', async () => {
      const h = await startBoard();
      expect(h.board.sharedState?.()).toEqual({
        board: { queue: { owner: 'person', text: '' }, progress: { owner: 'agent', text: '' }, notes: { owner: 'both', text: 'remember the changelog' } },
      });
      await command(h, 'set queue x');
      expect(h.board.snapshot?.()).toEqual(h.board.sharedState?.());
    });

    it('every change emits STATE_DELTA whose patch turns the old shared state into the new, then board.changed', async () => {
      const h = await startBoard();
      const before = shared(h.board.sharedState?.());
      await callTool(h, 'board_write', { line: 'progress', text: 'halfway' });
      await command(h, 'set queue next: docs');
      expect(h.events.map((event) => (event.type === 'CUSTOM' ? event.name : event.type))).toEqual([
        'STATE_DELTA',
        'board.changed',
        'STATE_DELTA',
        'board.changed',
      ]);
      expect(deltas(h.events)[0]).toEqual([
        { op: 'add', path: '/board/progress', value: { owner: 'agent', text: 'halfway', by: 'agent', at: expect.any(String) } },
      ]);
      expect(changes(h.events)).toEqual([
        { line: 'progress', text: 'halfway', by: 'agent' },
        { line: 'queue', text: 'next: docs', by: 'person' },
      ]);
      const patched = deltas(h.events).reduce(applyBoardPatch, before);
      expect(patched).toEqual(shared(h.board.sharedState?.()));
    });

    it("a client's state writes the person's lines; an echo is skipped; other lines are refused, said on the stream", async () => {
      const h = await startBoard();
      await callTool(h, 'board_write', { line: 'progress', text: 'agent wrote this' });
      h.events.length = 0;
      const echoed = shared(h.board.sharedState?.());
      await h.board.applyClientState?.({
        board: { ...echoed, queue: { owner: 'person', text: 'from the client' }, notes: 'plain text works too' },
        other: { unrelated: true },
      });
      expect(texts(shared(h.board.sharedState?.()))).toEqual({ queue: 'from the client', progress: 'agent wrote this', notes: 'plain text works too' });
      expect(changes(h.events)).toEqual([
        { line: 'queue', text: 'from the client', by: 'person' },
        { line: 'notes', text: 'plain text works too', by: 'person' },
      ]);
      expect(systemLines(h.events)).toEqual([]);

      h.events.length = 0;
      await h.board.applyClientState?.({ board: { progress: { text: 'client overrides agent' }, ghost: 'x', queue: 42 } });
      expect(texts(shared(h.board.sharedState?.())).progress).toBe('agent wrote this');
      expect(deltas(h.events)).toEqual([]);
      expect(systemLines(h.events)).toEqual([
        "board: not written from the client's state: " +
          'line "progress" belongs to the agent (owner: agent): you can read it but not write it; lines you can write: queue, notes; ' +
          'the board has no line "ghost"; its lines are queue (person), progress (agent), notes (both); ' +
          'line "queue" is not text or { "text": "..." }',
      ]);
      await h.board.applyClientState?.({ messagesSeen: 3 });
      expect(systemLines(h.events)).toHaveLength(1);
    });
  });

  describe('admin and invalid config', () => {
    it('describe lists tools, lines and where the board lives', async () => {
      const agent = await loadFolder(boardFolder());
      const config = agent.augments.find((a) => a.type === 'board')?.config ?? {};
      const section = boardAugment.describe(agent, config);
      expect(section.tools).toEqual(['board_read', 'board_write']);
      const rows = Object.fromEntries(section.rows.map((row) => [row.label, row.value]));
      expect(rows['Line queue']).toBe('owner person: What the person wants next.');
      expect(rows['Line notes']).toBe('owner both, initial "remember the changelog"');
      expect(rows.State).toBe('<session>/board.json');
      expect(boardAugment.describe(agent, {}).rows.find((row) => row.label === 'Lines')?.value).toBe('default (config.lines not set)');
      expect(boardAugment.describe(agent, { lines: [] }).rows.at(-1)?.value).toMatch(/^invalid/);
    });
  });
});
