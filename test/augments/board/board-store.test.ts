import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BoardStore, type BoardLine } from '../../../src/augments/board/board-store.js';
import type { LineSpec } from '../../../src/augments/board/config.js';
import { openSession, type SessionHandle } from '../../../src/session/session.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { savedBoard } from './harness.js';
import { folderOf } from '../../helpers/session-folder.js';

const SPECS: LineSpec[] = [
  { name: 'queue', owner: 'person' },
  { name: 'progress', owner: 'agent', initial: 'not started' },
  { name: 'notes', owner: 'both', initial: 'remember the changelog' },
];

function newSession(): Promise<SessionHandle> {
  return openSession({ agentDir: tempDir(), agentName: 'fixture' });
}

function store(session: SessionHandle, specs: LineSpec[] = SPECS) {
  const warnings: string[] = [];
  const changes: BoardLine[] = [];
  const board = new BoardStore({ session, specs, warn: (m) => warnings.push(m), onChange: (line) => changes.push(line) });
  return { board, warnings, changes };
}

const texts = (lines: BoardLine[]) => Object.fromEntries(lines.map((line) => [line.name, line.text]));

describe('BoardStore', () => {
  it('starts from the initial values and writes nothing until a line changes', async () => {
    const session = await newSession();
    const { board } = store(session);
    expect(texts(board.lines())).toEqual({ queue: '', progress: 'not started', notes: 'remember the changelog' });
    expect(savedBoard(session)).toBeUndefined();
  });

  it('a write changes one line in board.json and says who wrote it', async () => {
    const session = await newSession();
    const { board, changes } = store(session);
    const outcome = await board.write('progress', '1 of 3', 'agent');
    expect(outcome).toMatchObject({ ok: true, line: { name: 'progress', owner: 'agent', text: '1 of 3', by: 'agent' } });
    expect(savedBoard(session)).toMatchObject({ version: 1, lines: { progress: { text: '1 of 3', by: 'agent' } } });
    expect(Object.keys(savedBoard(session)?.lines ?? {})).toEqual(['progress']);
    expect(changes.map((line) => line.name)).toEqual(['progress']);
  });

  it('refuses the other side, unknown lines and long text without touching the file', async () => {
    const session = await newSession();
    const { board, changes } = store(session);
    expect(await board.write('queue', 'x', 'agent')).toEqual({
      ok: false,
      reason: 'line "queue" belongs to the person (owner: person): you can read it but not write it; lines you can write: progress, notes',
    });
    expect(await board.write('progress', 'x', 'person')).toEqual({
      ok: false,
      reason: 'line "progress" belongs to the agent (owner: agent): you can read it but not write it; lines you can write: queue, notes',
    });
    expect(await board.write('queu', 'x', 'person')).toEqual({
      ok: false,
      reason: 'the board has no line "queu" (did you mean queue?); its lines are queue (person), progress (agent), notes (both)',
    });
    expect(await board.write('notes', 'x'.repeat(4001), 'person')).toMatchObject({
      ok: false,
      reason: expect.stringContaining('4001 characters; a board line holds at most 4000'),
    });
    expect(savedBoard(session)).toBeUndefined();
    expect(changes).toEqual([]);
  });

  it("two writers on one session (two processes) never lose each other's lines", async () => {
    const session = await newSession();
    const agentSide = store(session);
    const personSide = store(await openSession({ agentDir: join(folderOf(session), '..', '..', '..'), agentName: 'fixture', sessionId: session.id }));
    // Each read its copy before the other wrote; every write re-reads board.json first.
    agentSide.board.lines();
    personSide.board.lines();
    expect((await agentSide.board.write('progress', 'step 1', 'agent')).ok).toBe(true);
    expect((await personSide.board.write('queue', 'review the docs', 'person')).ok).toBe(true);
    expect((await agentSide.board.write('notes', 'agent note', 'agent')).ok).toBe(true);
    expect((await personSide.board.write('progress', 'x', 'person')).ok).toBe(false);
    const saved = savedBoard(session)?.lines;
    expect(saved).toMatchObject({
      progress: { text: 'step 1', by: 'agent' },
      queue: { text: 'review the docs', by: 'person' },
      notes: { text: 'agent note', by: 'agent' },
    });
    expect(texts(agentSide.board.lines())).toEqual(texts(personSide.board.lines()));
    // The agent's side learns of the person's line on its next read, and announces it.
    expect(agentSide.changes.map((line) => `${line.name}:${line.by}`)).toContain('queue:person');
  });

  it('last write to a line wins; the same line written by both (owner both) keeps the later text', async () => {
    const session = await newSession();
    const a = store(session);
    const b = store(await openSession({ agentDir: join(folderOf(session), '..', '..', '..'), agentName: 'fixture', sessionId: session.id }));
    await a.board.write('notes', 'first', 'agent');
    await b.board.write('notes', 'second', 'person');
    expect(texts(a.board.lines()).notes).toBe('second');
    expect(a.board.lines().find((line) => line.name === 'notes')?.by).toBe('person');
  });

  it('a resumed session restores the board; initial values fill only the lines not yet written', async () => {
    const session = await newSession();
    await store(session).board.write('queue', 'ship it', 'person');
    const resumed = await openSession({ agentDir: join(folderOf(session), '..', '..', '..'), agentName: 'fixture', sessionId: session.id });
    expect(resumed.resumed).toBe(true);
    const { board } = store(resumed);
    expect(texts(board.lines())).toEqual({ queue: 'ship it', progress: 'not started', notes: 'remember the changelog' });
    // A cleared line stays cleared: empty text is written, not "not yet written".
    await board.write('notes', '', 'person');
    expect(texts(store(resumed).board.lines()).notes).toBe('');
  });

  it('keeps lines the config no longer lists in board.json', async () => {
    const session = await newSession();
    await store(session).board.write('notes', 'old note', 'agent');
    const narrower = store(session, [SPECS[0]]);
    await narrower.board.write('queue', 'new', 'person');
    expect(savedBoard(session)?.lines).toMatchObject({ notes: { text: 'old note' }, queue: { text: 'new' } });
    expect(narrower.board.lines().map((line) => line.name)).toEqual(['queue']);
  });

  it('a corrupt board.json is set aside with a warning and the board starts from its initial values', async () => {
    const session = await newSession();
    writeFileSync(join(folderOf(session), 'board.json'), '{"version": 1, "lines": {');
    const { board, warnings } = store(session);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^board: board\.json was not readable JSON and was set aside as .*board\.json\.corrupt-\d+; the board starts from its initial values$/,
    );
    expect(readdirSync(folderOf(session)).filter((name) => name.startsWith('board.json.corrupt-'))).toHaveLength(1);
    expect(texts(board.lines())).toEqual({ queue: '', progress: 'not started', notes: 'remember the changelog' });
    expect((await board.write('queue', 'again', 'person')).ok).toBe(true);
    expect(savedBoard(session)?.lines.queue.text).toBe('again');
  });

  it('JSON that is not a board is set aside too', async () => {
    const session = await newSession();
    writeFileSync(join(folderOf(session), 'board.json'), '{"queue": "loose text"}');
    const { board, warnings } = store(session);
    expect(warnings[0]).toMatch(
      /^board: board\.json does not hold a board \(.*\) and was set aside as .*board\.json\.invalid-\d+; the board starts from its initial values$/,
    );
    expect(existsSync(join(folderOf(session), 'board.json'))).toBe(false);
    expect(texts(board.lines()).queue).toBe('');
  });

  it('a file broken mid-session: the board keeps what it knew and puts the file back', async () => {
    const session = await newSession();
    const { board, warnings } = store(session);
    await board.write('queue', 'keep me', 'person');
    writeFileSync(join(folderOf(session), 'board.json'), 'garbage');
    expect(texts(board.lines()).queue).toBe('keep me');
    expect(warnings[0]).toMatch(/set aside as .*; the board keeps the lines it last knew$/);
    await session.flush();
    expect(savedBoard(session)?.lines.queue.text).toBe('keep me');
  });
});
