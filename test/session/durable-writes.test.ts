import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { execa, execaSync } from 'execa';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSession, SessionError } from '../../src/session/session.js';
import type { SessionEntry } from '../../src/session/entries.js';
import { folderStore } from '../../src/session/folder-store.js';
import { BoardStore } from '../../src/augments/board/board-store.js';
import { UserAskStore } from '../../src/augments/user-ask/user-ask-store.js';
import { AUGGY_BIN, makeAgentFolder } from '../helpers/agent-fixture.js';
import { startChatServer } from '../helpers/chat-server.js';
import { folderOf } from '../helpers/session-folder.js';

async function deadPid(): Promise<number> {
  const child = execa('node', ['-e', '0']);
  const pid = child.pid ?? -1;
  await child;
  return pid;
}

describe('temp files of atomic writes', () => {
  it('those a crash left are removed when the session opens; one whose writer still runs stays', async () => {
    const agentDir = mkdtempSync(join(tmpdir(), 'auggy-temp-'));
    const session = await openSession({ agentDir, agentName: 'demo' });
    const crashed = `board.json.${await deadPid()}-0a1b2c3d.tmp`;
    const legacy = 'user_ask.json.0a1b2c3d.tmp';
    const inProgress = `board.json.${process.ppid}-0a1b2c3d.tmp`;
    for (const name of [crashed, legacy, inProgress]) writeFileSync(join(folderOf(session), name), '{"half":');
    await openSession({ agentDir, agentName: 'demo', sessionId: session.id });
    const left = readdirSync(folderOf(session));
    expect(left).not.toContain(crashed);
    expect(left).not.toContain(legacy);
    expect(left).toContain(inProgress);
  });

  it('a state write leaves no temp file behind', async () => {
    const session = await openSession({ agentDir: mkdtempSync(join(tmpdir(), 'auggy-temp-')), agentName: 'demo' });
    await session.writeState('board.json', { a: 1 });
    await session.writeState('board.json', { a: 2 });
    expect(readdirSync(folderOf(session)).sort()).toEqual(['board.json', 'events.jsonl']);
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

/** Writes a filler file until the file system says it is full, then gives back `roomBytes` of it. */
function fillDisk(roomBytes = 0): void {
  const path = join(mountPoint, 'filler');
  const fd = openSync(path, 'w');
  const block = Buffer.alloc(4096, 0x61);
  let size = 0;
  try {
    for (;;) size += writeSync(fd, block);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
  if (roomBytes > 0) truncateSync(path, Math.max(0, size - roomBytes));
}

/** A copy of the fixture agent on the small disk, talking to `baseURL`. */
function fixtureOnSmallDisk(baseURL = 'http://127.0.0.1:9/v1'): string {
  const dir = join(mountPoint, 'agent');
  const source = makeAgentFolder({ engine: `engine:\n  provider: openai-compatible\n  model: test\n  baseURL: ${baseURL}\n` });
  mkdirSync(dir);
  for (const name of ['agent.yaml', 'identity.md']) writeFileSync(join(dir, name), readFileSync(join(source, name)));
  mkdirSync(join(dir, 'augments', 'turnControl'), { recursive: true });
  writeFileSync(join(dir, 'augments', 'turnControl', 'augment.yaml'), 'type: turnControl\n');
  return dir;
}

function logOf(sessionDir: string): SessionEntry[] {
  return readFileSync(join(sessionDir, 'events.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as SessionEntry);
}

const printEnv = { OPENAI_API_KEY: '', AUGGY_MODEL: '', AUGGY_BASE_URL: '', NO_COLOR: '1' };

function agentOnSmallDisk(): string {
  const dir = join(mountPoint, 'agent');
  mkdirSync(dir);
  return dir;
}

describe('a full disk', () => {
  it('a state write is refused with one sentence and leaves the old file whole and no temp file', async (context) => {
    context.skip(mountProblem !== undefined, mountProblem);
    const session = await openSession({ agentDir: agentOnSmallDisk(), agentName: 'demo' });
    await session.writeState('board.json', { line: 'old' });
    fillDisk();
    const refused = await session.writeState('board.json', { line: 'x'.repeat(20_000) }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(SessionError);
    expect((refused as Error).message).toMatch(/^the disk is full, so \S+board\.json could not be written; free some space and resume with --session$/);
    expect(session.readState('board.json')).toEqual({ status: 'ok', value: { line: 'old' } });
    expect(JSON.parse(readFileSync(join(session.dir, 'board.json'), 'utf8'))).toEqual({ line: 'old' });
    expect(readdirSync(session.dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    await expect(session.flush()).resolves.toBeUndefined();
  });

  it('board_write on a full disk is refused to the writer and announced to no one', async (context) => {
    context.skip(mountProblem !== undefined, mountProblem);
    const session = await openSession({ agentDir: agentOnSmallDisk(), agentName: 'demo' });
    const changes: string[] = [];
    const board = new BoardStore({
      session,
      specs: [{ name: 'progress', owner: 'agent' }],
      warn: () => undefined,
      onChange: (line) => changes.push(line.text),
    });
    expect((await board.write('progress', 'built', 'agent')).ok).toBe(true);
    fillDisk();
    const refused = await board.write('progress', 'x'.repeat(4000), 'agent');
    expect(refused).toEqual({
      ok: false,
      reason: expect.stringMatching(/^the board could not be saved, so line "progress" is unchanged: the disk is full, so \S+board\.json could not be written/),
    });
    expect(changes).toEqual(['built']);
    expect(board.lines().find((line) => line.name === 'progress')?.text).toBe('built');
    expect(readdirSync(session.dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('an ask the full disk will not take is one warning, and the ask still works for this run', async (context) => {
    context.skip(mountProblem !== undefined, mountProblem);
    const session = await openSession({ agentDir: agentOnSmallDisk(), agentName: 'demo' });
    const warnings: string[] = [];
    const ask = new UserAskStore(session, (message) => warnings.push(message));
    fillDisk();
    await ask.set('x'.repeat(3000), 'user');
    expect(warnings).toEqual([expect.stringMatching(/^userAsk: the ask was not saved: the disk is full, so \S+user_ask\.json could not be written/)]);
    expect(ask.active?.text).toBe('x'.repeat(3000));
  });

  it('a new session on a full disk is one sentence that does not send the person to a session that is not there, and leaves no folder', async (context) => {
    context.skip(mountProblem !== undefined, mountProblem);
    const dir = agentOnSmallDisk();
    const store = folderStore({ dir, name: 'demo' });
    const existing = await store.open({ sessionId: 'before', createIfMissing: true });
    fillDisk();
    for (const options of [{ sessionId: 'new-thread', createIfMissing: true }, {}]) {
      const refused = await store.open(options).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(SessionError);
      expect((refused as Error).message).toMatch(/^the disk is full, so \S+events\.jsonl could not be written; free some space and try again$/);
    }
    expect(readdirSync(join(dir, '.auggy', 'sessions'))).toEqual(['before']);
    await expect(existing.acquireWriter()).rejects.toThrow(/^the disk is full, so \S+writer\.lock could not be written; free some space/);
    expect(readdirSync(existing.dir ?? '')).toEqual(['events.jsonl']);
    rmSync(join(mountPoint, 'filler'));
    const opened = await store.open({ sessionId: 'new-thread', createIfMissing: true });
    expect(opened.entries().entries.map((entry) => entry.kind)).toEqual(['header']);
    const lease = await existing.acquireWriter();
    await lease.release();
    await Promise.all([opened.close(), existing.close()]);
  });

  it('an append cut short is taken back, and the appends after it are refused with it until the next writer, so the log never skips a line', async (context) => {
    context.skip(mountProblem !== undefined, mountProblem);
    const session = await openSession({ agentDir: agentOnSmallDisk(), agentName: 'demo' });
    const lease = await session.acquireWriter();
    await session.append({ kind: 'user', turnId: 't1', text: 'before the disk filled', at: 'now' });
    const before = readFileSync(join(session.dir, 'events.jsonl'));
    fillDisk();
    // Far larger than the room left in the file's last page, so the write is cut partway.
    const big = session.append({ kind: 'user', turnId: 't2', text: 'y'.repeat(20_000), at: 'now' });
    const small = session.append({ kind: 'user', turnId: 't2', text: 'small', at: 'now' });
    await expect(big).rejects.toThrow(/^the disk is full/);
    await expect(small).rejects.toThrow(/^the disk is full/);
    // Nothing of the refused lines; one short line saying they were refused, where it still fits.
    const refused = readFileSync(join(session.dir, 'events.jsonl'));
    expect(refused.subarray(0, before.length)).toEqual(before);
    expect(logOf(session.dir).slice(2)).toEqual([
      { kind: 'record', name: 'log-write-refused', data: { reason: expect.stringMatching(/^the disk is full/) }, at: expect.any(String) },
    ]);
    rmSync(join(mountPoint, 'filler'));
    await expect(session.append({ kind: 'user', turnId: 't2', text: 'still this turn', at: 'now' })).rejects.toThrow(/^the disk is full/);
    expect(readFileSync(join(session.dir, 'events.jsonl'))).toEqual(refused);
    await lease.release();
    const next = await session.acquireWriter();
    expect(next.changedElsewhere).toBe(true);
    await session.append({ kind: 'user', turnId: 't3', text: 'after', at: 'now' });
    await next.release();
    expect(session.entries()).toMatchObject({
      warnings: [],
      entries: [{ kind: 'header' }, { text: 'before the disk filled' }, { name: 'log-write-refused' }, { text: 'after' }],
    });
  });

  it('auggy run --print on a full disk: one sentence, exit 2, and the session as it was', async (context) => {
    context.skip(mountProblem !== undefined, mountProblem);
    const dir = fixtureOnSmallDisk();
    const session = await openSession({ agentDir: dir, agentName: 'fixture' });
    const log = readFileSync(join(session.dir, 'events.jsonl'));
    fillDisk();
    const result = await execa('node', [AUGGY_BIN, 'run', dir, '--print', 'hello', '--session', session.id], { reject: false, env: printEnv });
    expect(result.exitCode).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^auggy: the disk is full, so .* could not be written; free some space/)]);
    expect(readFileSync(join(session.dir, 'events.jsonl'))).toEqual(log);
    expect(existsSync(join(session.dir, 'writer.lock'))).toBe(false);
  });

  it("a person's message the disk will not take is never answered: no model call, one sentence, and the log as it was", async (context) => {
    context.skip(mountProblem !== undefined, mountProblem);
    const server = await startChatServer(() => ({ text: 'An answer to a message nobody kept.' }));
    try {
      const dir = fixtureOnSmallDisk(server.url);
      const session = await openSession({ agentDir: dir, agentName: 'fixture' });
      const log = readFileSync(join(session.dir, 'events.jsonl'));
      // Room for the lock, not for a message this long.
      fillDisk(8192);
      const result = await execa('node', [AUGGY_BIN, 'run', dir, '--print', 'z'.repeat(30_000), '--session', session.id], { reject: false, env: printEnv });
      expect(server.requests).toEqual([]);
      expect(result.exitCode).not.toBe(0);
      expect(result.stderr.trim().split('\n')).toEqual([
        expect.stringMatching(
          /^auggy: turn failed: the session could not be saved: the disk is full, so \S+events\.jsonl could not be written; free some space and resume with --session$/,
        ),
      ]);
      // The log as it was, and one short line saying why nothing of the turn follows.
      const after = readFileSync(join(session.dir, 'events.jsonl'));
      expect(after.subarray(0, log.length)).toEqual(log);
      expect(logOf(session.dir).slice(1)).toEqual([
        { kind: 'record', name: 'log-write-refused', data: { reason: expect.stringMatching(/^the disk is full/) }, at: expect.any(String) },
      ]);
      expect(existsSync(join(session.dir, 'writer.lock'))).toBe(false);
    } finally {
      await server.close();
    }
  });

  it('a reply the disk will not take leaves no completed turn and no reply without its text in the log, and the person reads one sentence', async (context) => {
    context.skip(mountProblem !== undefined, mountProblem);
    const server = await startChatServer(() => ({ text: 'w'.repeat(30_000) }));
    try {
      const dir = fixtureOnSmallDisk(server.url);
      const session = await openSession({ agentDir: dir, agentName: 'fixture' });
      fillDisk(12_288);
      const result = await execa('node', [AUGGY_BIN, 'run', dir, '--print', 'say a lot', '--session', session.id], { reject: false, env: printEnv });
      expect(server.requests).toHaveLength(1);
      expect(result.exitCode).not.toBe(0);
      expect(result.stderr.trim().split('\n')).toEqual([
        expect.stringMatching(
          /^auggy: turn failed: the session could not be saved: the disk is full, so \S+events\.jsonl could not be written; free some space and resume with --session$/,
        ),
      ]);
      const entries = logOf(session.dir);
      expect(entries.filter((entry) => entry.kind === 'user').map((entry) => entry.kind === 'user' && entry.text)).toEqual(['say a lot']);
      expect(entries.some((entry) => entry.kind === 'event' && entry.event.type === 'RUN_FINISHED')).toBe(false);
      expect(entries.some((entry) => entry.kind === 'message')).toBe(false);
      // The log says why the turn ends there, and the listing calls it failed, not cut off.
      expect(entries.at(-1)).toMatchObject({ kind: 'record', name: 'log-write-refused' });
      const listed = await execa('node', [AUGGY_BIN, 'sessions', dir, '--json'], { reject: false, env: printEnv });
      expect(JSON.parse(listed.stdout)).toMatchObject([{ id: session.id, ended: 'failed' }]);
      // The next prompt carries no empty reply: what the log holds of the turn is only the person's message.
      rmSync(join(mountPoint, 'filler'));
      const next = await execa('node', [AUGGY_BIN, 'run', dir, '--print', 'again', '--session', session.id], { reject: false, env: printEnv });
      expect(next.stderr).toBe('');
      expect(next.exitCode).toBe(0);
      const assistants = server.requests[1]?.body.messages.filter((message) => message.role === 'assistant') ?? [];
      expect(assistants.filter((message) => message.content === '' || message.content === null)).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
