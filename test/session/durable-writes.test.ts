import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { execa, execaSync } from 'execa';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSession, SessionError } from '../../src/session/session.js';
import { folderStore } from '../../src/session/folder-store.js';
import { BoardStore } from '../../src/augments/board/board-store.js';
import { UserAskStore } from '../../src/augments/user-ask/user-ask-store.js';
import { AUGGY_BIN, makeAgentFolder } from '../helpers/agent-fixture.js';

async function deadPid(): Promise<number> {
  const child = execa('node', ['-e', '0']);
  const pid = child.pid ?? -1;
  await child;
  return pid;
}

describe('temp files of atomic writes', () => {
  it('those a crash left are removed when the session opens; one whose writer still runs stays', async () => {
    const agentDir = mkdtempSync(join(tmpdir(), 'auggy-temp-'));
    const session = openSession({ agentDir, agentName: 'demo' });
    const crashed = `board.json.${await deadPid()}-0a1b2c3d.tmp`;
    const legacy = 'user_ask.json.0a1b2c3d.tmp';
    const inProgress = `board.json.${process.ppid}-0a1b2c3d.tmp`;
    for (const name of [crashed, legacy, inProgress]) writeFileSync(join(session.dir, name), '{"half":');
    openSession({ agentDir, agentName: 'demo', sessionId: session.id });
    const left = readdirSync(session.dir);
    expect(left).not.toContain(crashed);
    expect(left).not.toContain(legacy);
    expect(left).toContain(inProgress);
  });

  it('a state write leaves no temp file behind', () => {
    const session = openSession({ agentDir: mkdtempSync(join(tmpdir(), 'auggy-temp-')), agentName: 'demo' });
    session.writeState('board.json', { a: 1 });
    session.writeState('board.json', { a: 2 });
    expect(readdirSync(session.dir).sort()).toEqual(['board.json', 'events.jsonl']);
    expect(session.readState('board.json')).toEqual({ status: 'ok', value: { a: 2 } });
  });
});

/**
 * A real full disk: a 64 KiB tmpfs. Mounting needs root (CI runs as root); elsewhere these
 * tests are skipped and say why.
 */
const mountPoint = mkdtempSync(join(tmpdir(), 'auggy-fulldisk-'));
let mountProblem: string | undefined;

beforeAll(() => {
  try {
    execaSync('mount', ['-t', 'tmpfs', '-o', 'size=64k,mode=0755', 'tmpfs', mountPoint]);
  } catch (error) {
    mountProblem = `cannot mount a small tmpfs to fill (${(error as { shortMessage?: string }).shortMessage ?? String(error)})`;
  }
});

afterAll(() => {
  if (mountProblem === undefined) execaSync('umount', [mountPoint], { reject: false });
  rmSync(mountPoint, { recursive: true, force: true });
});

afterEach(() => {
  if (mountProblem !== undefined) return;
  for (const name of readdirSync(mountPoint)) rmSync(join(mountPoint, name), { recursive: true, force: true });
});

/** Writes a filler file until the file system says it is full. */
function fillDisk(): void {
  const fd = openSync(join(mountPoint, 'filler'), 'w');
  const block = Buffer.alloc(4096, 0x61);
  try {
    for (;;) writeSync(fd, block);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
}

function agentOnSmallDisk(): string {
  const dir = join(mountPoint, 'agent');
  mkdirSync(dir);
  return dir;
}

describe('a full disk', () => {
  it('a state write fails with one sentence and leaves the old file whole and no temp file', (context) => {
    context.skip(mountProblem !== undefined, mountProblem);
    const session = openSession({ agentDir: agentOnSmallDisk(), agentName: 'demo' });
    session.writeState('board.json', { line: 'old' });
    fillDisk();
    let refused: unknown;
    try {
      session.writeState('board.json', { line: 'x'.repeat(20_000) });
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(SessionError);
    expect((refused as Error).message).toMatch(/^the disk is full, so \S+board\.json could not be written; free some space and resume with --session$/);
    expect(session.readState('board.json')).toEqual({ status: 'ok', value: { line: 'old' } });
    expect(readdirSync(session.dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('a state write behind (serve) that the disk refuses is one sentence at the next flush, and the old file stays whole', async (context) => {
    context.skip(mountProblem !== undefined, mountProblem);
    const session = openSession({ agentDir: agentOnSmallDisk(), agentName: 'demo', writeBehind: true });
    session.writeState('board.json', { line: 'old' });
    await session.flush();
    fillDisk();
    session.writeState('board.json', { line: 'x'.repeat(20_000) });
    await expect(session.flush()).rejects.toThrow(/^the disk is full, so \S+board\.json could not be written; free some space and resume with --session$/);
    expect(session.readState('board.json')).toEqual({ status: 'ok', value: { line: 'old' } });
    expect(JSON.parse(readFileSync(join(session.dir, 'board.json'), 'utf8'))).toEqual({ line: 'old' });
    expect(readdirSync(session.dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it("under serve, board_write on a full disk is refused to the writer and announced to no one, as without writing behind", async (context) => {
    context.skip(mountProblem !== undefined, mountProblem);
    const session = openSession({ agentDir: agentOnSmallDisk(), agentName: 'demo', writeBehind: true });
    const changes: string[] = [];
    const board = new BoardStore({ session, specs: [{ name: 'progress', owner: 'agent' }], warn: () => undefined, onChange: (line) => changes.push(line.text) });
    expect((await board.writeSaved('progress', 'built', 'agent')).ok).toBe(true);
    fillDisk();
    const refused = await board.writeSaved('progress', 'x'.repeat(4000), 'agent');
    expect(refused).toEqual({ ok: false, reason: expect.stringMatching(/^the board could not be saved, so line "progress" is unchanged: the disk is full, so \S+board\.json could not be written/) });
    expect(changes).toEqual(['built']);
    expect(board.lines().find((line) => line.name === 'progress')?.text).toBe('built');
    // Told to the writer, so not again to the turn: the run ends as it would have.
    await expect(session.flush()).resolves.toBeUndefined();
    expect(readdirSync(session.dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('under serve, an ask the full disk will not take is a warning, as without writing behind, and the turn is not failed for it', async (context) => {
    context.skip(mountProblem !== undefined, mountProblem);
    const session = openSession({ agentDir: agentOnSmallDisk(), agentName: 'demo', writeBehind: true });
    const warnings: string[] = [];
    const ask = new UserAskStore(session, (message) => warnings.push(message));
    fillDisk();
    ask.set('x'.repeat(3000), 'user');
    await expect(session.flush()).resolves.toBeUndefined();
    expect(warnings).toEqual([expect.stringMatching(/^userAsk: the ask was not saved: the disk is full, so \S+user_ask\.json could not be written/)]);
    expect(ask.active?.text).toBe('x'.repeat(3000));
  });

  it("under serve, a new thread's session and a run's lock on a full disk are one sentence each and leave nothing half made", async (context) => {
    context.skip(mountProblem !== undefined, mountProblem);
    const dir = agentOnSmallDisk();
    const store = folderStore({ dir, name: 'demo' }, { writeBehind: true });
    const existing = await store.open({ sessionId: 'before', createIfMissing: true });
    fillDisk();
    await expect(store.open({ sessionId: 'new-thread', createIfMissing: true })).rejects.toThrow(/^the disk is full, so \S+ could not be written; free some space/);
    expect(existsSync(join(dir, '.auggy', 'sessions', 'new-thread', 'events.jsonl'))).toBe(false);
    await expect(existing.acquireWriter()).rejects.toThrow(/^the disk is full, so \S+writer\.lock could not be written; free some space/);
    expect(existsSync(join(existing.dir, 'writer.lock'))).toBe(false);
    rmSync(join(mountPoint, 'filler'));
    const opened = await store.open({ sessionId: 'new-thread', createIfMissing: true });
    expect(opened.entries().entries.map((entry) => entry.kind)).toEqual(['header']);
    const lease = await existing.acquireWriter();
    await lease.release();
    await Promise.all([opened.close(), existing.close()]);
  });

  it('an append cut short is taken back: the log still ends with its last whole line', (context) => {
    context.skip(mountProblem !== undefined, mountProblem);
    const session = openSession({ agentDir: agentOnSmallDisk(), agentName: 'demo' });
    session.append({ kind: 'user', turnId: 't1', text: 'before the disk filled', at: 'now' });
    const before = readFileSync(join(session.dir, 'events.jsonl'));
    fillDisk();
    // Far larger than the room left in the file's last page, so the write is cut partway.
    expect(() => session.append({ kind: 'user', turnId: 't2', text: 'y'.repeat(20_000), at: 'now' })).toThrow(/^the disk is full/);
    expect(readFileSync(join(session.dir, 'events.jsonl'))).toEqual(before);
    rmSync(join(mountPoint, 'filler'));
    session.append({ kind: 'user', turnId: 't3', text: 'after', at: 'now' });
    expect(session.entries()).toMatchObject({ warnings: [], entries: [{ kind: 'header' }, { text: 'before the disk filled' }, { text: 'after' }] });
  });

  it('auggy run --print on a full disk: one sentence, exit 2, and the session as it was', async (context) => {
    context.skip(mountProblem !== undefined, mountProblem);
    const dir = join(mountPoint, 'agent');
    const source = makeAgentFolder();
    mkdirSync(dir);
    for (const name of ['agent.yaml', 'identity.md']) writeFileSync(join(dir, name), readFileSync(join(source, name)));
    mkdirSync(join(dir, 'augments', 'turnControl'), { recursive: true });
    writeFileSync(join(dir, 'augments', 'turnControl', 'augment.yaml'), 'type: turnControl\n');
    const session = openSession({ agentDir: dir, agentName: 'fixture' });
    const log = readFileSync(join(session.dir, 'events.jsonl'));
    fillDisk();
    const result = await execa('node', [AUGGY_BIN, 'run', dir, '--print', 'hello', '--session', session.id], {
      reject: false,
      env: { OPENAI_API_KEY: '', AUGGY_MODEL: '', AUGGY_BASE_URL: '', NO_COLOR: '1' },
    });
    expect(result.exitCode).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^auggy: the disk is full, so .* could not be written; free some space/)]);
    expect(readFileSync(join(session.dir, 'events.jsonl'))).toEqual(log);
    expect(existsSync(join(session.dir, 'writer.lock'))).toBe(false);
  });
});
