import { describe, expect, it } from 'vitest';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listSessions, openSession, SessionError, SessionNotFoundError } from '../../src/session/session.js';
import { folderStore } from '../../src/session/folder-store.js';
import { transcriptFromEntries } from '../../src/session/transcript.js';
import type { SessionEntry } from '../../src/session/entries.js';
import { folderOf } from '../helpers/session-folder.js';

function agentDir(): string {
  return mkdtempSync(join(tmpdir(), 'auggy-session-'));
}

describe('sessions', () => {
  it('creates a private folder with a header line and resumes it by id', async () => {
    const dir = agentDir();
    const session = await openSession({ agentDir: dir, agentName: 'demo' });
    expect(statSync(folderOf(session)).mode & 0o777).toBe(0o700);
    expect(statSync(join(folderOf(session), 'events.jsonl')).mode & 0o777).toBe(0o600);
    await session.append({ kind: 'user', turnId: 't1', text: 'hi', at: 'now' });
    const resumed = await openSession({ agentDir: dir, agentName: 'demo', sessionId: session.id });
    expect(resumed.resumed).toBe(true);
    expect(resumed.entries().entries.map((e) => e.kind)).toEqual(['header', 'user']);
  });

  it('--continue picks the newest session', async () => {
    const dir = agentDir();
    const older = await openSession({ agentDir: dir, agentName: 'demo' });
    const past = new Date(Date.now() - 60_000);
    utimesSync(join(older.dir, 'events.jsonl'), past, past);
    const newer = await openSession({ agentDir: dir, agentName: 'demo' });
    await newer.append({ kind: 'user', turnId: 't', text: 'latest', at: 'now' });
    expect(listSessions(dir)[0]).toBe(newer.id);
    expect((await openSession({ agentDir: dir, agentName: 'demo', continueLatest: true })).id).toBe(newer.id);
  });

  it('refuses ids with path characters and unknown ids, touching nothing', async () => {
    const dir = agentDir();
    await expect(openSession({ agentDir: dir, agentName: 'demo', sessionId: '../escape' })).rejects.toThrow(SessionError);
    await expect(openSession({ agentDir: dir, agentName: 'demo', sessionId: 'unknown' })).rejects.toThrow(/no session "unknown"/);
    // A server tells its clients its own sentence from the id, never by reading this one.
    const missing = await openSession({ agentDir: dir, agentName: 'demo', sessionId: 'unknown' }).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(SessionNotFoundError);
    expect(missing).toMatchObject({ sessionId: 'unknown' });
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a cut last line is moved to events.jsonl.broken by the next writer, with one notice; a later writer is told nothing', async () => {
    const dir = agentDir();
    const session = await openSession({ agentDir: dir, agentName: 'demo' });
    await session.append({ kind: 'user', turnId: 't', text: 'kept', at: 'now' });
    appendFileSync(join(folderOf(session), 'events.jsonl'), '{"kind":"user","text":"cut of');
    const resumed = await openSession({ agentDir: dir, agentName: 'demo', sessionId: session.id });
    const { entries, warnings } = resumed.entries();
    // Read before any writer repairs it: the cut line is not a whole line yet, so it is left out, silently.
    expect(entries.map((e) => e.kind)).toEqual(['header', 'user']);
    expect(warnings).toEqual([]);
    const lease = await resumed.acquireWriter();
    expect(lease.notices).toEqual([expect.stringMatching(/ended in a cut-off line .* moved to events\.jsonl\.broken/)]);
    expect(readFileSync(join(folderOf(session), 'events.jsonl.broken'), 'utf8')).toBe('{"kind":"user","text":"cut of\n');
    // The next append starts a line of its own instead of being glued onto the cut one.
    await resumed.append({ kind: 'user', turnId: 't2', text: 'next', at: 'now' });
    await lease.release();
    const later = await openSession({ agentDir: dir, agentName: 'demo', sessionId: session.id });
    const again = later.entries();
    expect(again.warnings).toEqual([]);
    const next = await later.acquireWriter();
    expect(next.notices).toEqual([]);
    await next.release();
    expect(again.entries.map((e) => (e.kind === 'user' ? e.text : e.kind))).toEqual(['header', 'kept', 'next']);
  });

  it('a damaged line in the middle is skipped with a warning naming it', async () => {
    const session = await openSession({ agentDir: agentDir(), agentName: 'demo' });
    appendFileSync(join(folderOf(session), 'events.jsonl'), '{"kind":"user","te\n');
    await session.append({ kind: 'user', turnId: 't', text: 'after', at: 'now' });
    const { entries, warnings } = session.entries();
    expect(entries).toHaveLength(2);
    expect(warnings).toEqual([expect.stringMatching(/line 2 cannot be read/)]);
  });

  it('a handle hears of state another handle wrote until it is closed; then the store lets go of it', async () => {
    const store = folderStore({ dir: agentDir(), name: 'demo' });
    const watching = await store.open({ sessionId: 'thread-1', createIfMissing: true });
    const writing = await store.open({ sessionId: 'thread-1' });
    const heard: string[] = [];
    watching.watchState((name) => heard.push(name));
    await writing.writeState('board.json', { version: 1, lines: {} });
    // Told once the write is saved, so what the listener reads is on disk.
    expect(heard).toEqual(['board.json']);
    // A server closes a thread's handle when it drops the conversation: nothing of it may stay behind.
    await watching.close();
    await writing.writeState('board.json', { version: 1, lines: { a: { text: 'x', by: 'agent', at: 'now' } } });
    expect(heard).toEqual(['board.json']);
  });

  it('a state file another writer replaced, or edited in place, is read afresh; one removed reads as missing', async () => {
    const dir = agentDir();
    const reader = await openSession({ agentDir: dir, agentName: 'demo' });
    const writer = await openSession({ agentDir: dir, agentName: 'demo', sessionId: reader.id });
    expect(reader.readState('board.json')).toEqual({ status: 'missing' });
    await writer.writeState('board.json', { n: 1 });
    expect(reader.readState('board.json')).toEqual({ status: 'ok', value: { n: 1 } });
    await writer.writeState('board.json', { n: 2 });
    expect(reader.readState('board.json')).toEqual({ status: 'ok', value: { n: 2 } });
    // A person's editor writing the same file in place, to the same length.
    writeFileSync(join(reader.dir, 'board.json'), '{"n": 3}\n');
    expect(reader.readState('board.json')).toEqual({ status: 'ok', value: { n: 3 } });
    writeFileSync(join(reader.dir, 'board.json'), '{"n": 4}\n');
    expect(reader.readState('board.json')).toEqual({ status: 'ok', value: { n: 4 } });
    await writer.removeState('board.json');
    expect(reader.readState('board.json')).toEqual({ status: 'missing' });
    // A value read is the reader's own: changing it changes nothing the next read returns.
    await writer.writeState('board.json', { lines: ['a'] });
    const first = reader.readState('board.json');
    if (first.status === 'ok') (first.value as { lines: string[] }).lines.push('changed');
    expect(reader.readState('board.json')).toEqual({ status: 'ok', value: { lines: ['a'] } });
  });

  it("a new thread's session is a private folder with its header, and two opens of it at once get the one session", async () => {
    const dir = agentDir();
    const store = folderStore({ dir, name: 'demo' });
    const [first, second] = await Promise.all([
      store.open({ sessionId: 'thread-1', createIfMissing: true }),
      store.open({ sessionId: 'thread-1', createIfMissing: true }),
    ]);
    expect(first.dir).toBe(second.dir);
    expect(statSync(folderOf(first)).mode & 0o777).toBe(0o700);
    expect(statSync(join(folderOf(first), 'events.jsonl')).mode & 0o777).toBe(0o600);
    expect(
      readFileSync(join(folderOf(first), 'events.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).kind),
    ).toEqual(['header']);
    expect([first.resumed, second.resumed].sort()).toEqual([false, true]);
    await Promise.all([first.close(), second.close()]);
  });

  it('a session opened beside its writer (a board write beside a run) never makes the writer busy', async () => {
    const dir = agentDir();
    const store = folderStore({ dir, name: 'demo' });
    const runBeside = async (sessionId: string) => {
      const [writer, beside] = await Promise.all([
        store.open({ sessionId, createIfMissing: true }).then(async (handle) => ({ handle, lease: await handle.acquireWriter() })),
        store.open({ sessionId, createIfMissing: true, observer: true }),
      ]);
      await writer.lease.release();
      await Promise.all([writer.handle.close(), beside.close()]);
    };
    // A new thread (the board write waits for the run's open to make the session), then the same thread resumed.
    await runBeside('thread-2');
    await runBeside('thread-2');
    await runBeside('thread-2');
  });

  it('sets a corrupt state file aside rather than deleting it', async () => {
    const session = await openSession({ agentDir: agentDir(), agentName: 'demo' });
    writeFileSync(join(folderOf(session), 'user_ask.json'), '{not json');
    const read = session.readState('user_ask.json');
    expect(read.status).toBe('corrupt');
    expect(readdirSync(folderOf(session)).some((name) => name.startsWith('user_ask.json.corrupt-'))).toBe(true);
    await session.writeState('user_ask.json', { text: 'x' });
    expect(session.readState('user_ask.json')).toEqual({ status: 'ok', value: { text: 'x' } });
  });
});

describe('nothing under .auggy is written through a link', () => {
  it('a linked .auggy, .auggy/sessions or session folder is refused with one sentence, and nothing lands at the target', async () => {
    const elsewhere = agentDir();
    const linkedAuggy = agentDir();
    symlinkSync(elsewhere, join(linkedAuggy, '.auggy'));
    await expect(openSession({ agentDir: linkedAuggy, agentName: 'demo' })).rejects.toThrow(
      /^\.auggy is a symbolic link \(to \S+\); auggy writes nothing under \.auggy through a link, so replace it with a real folder$/,
    );

    const linkedSessions = agentDir();
    mkdirSync(join(linkedSessions, '.auggy'));
    symlinkSync(elsewhere, join(linkedSessions, '.auggy', 'sessions'));
    await expect(openSession({ agentDir: linkedSessions, agentName: 'demo', continueLatest: true })).rejects.toThrow(/^\.auggy\/sessions is a symbolic link/);

    const linkedSession = agentDir();
    mkdirSync(join(linkedSession, '.auggy', 'sessions'), { recursive: true });
    symlinkSync(elsewhere, join(linkedSession, '.auggy', 'sessions', 'abc'));
    await expect(openSession({ agentDir: linkedSession, agentName: 'demo', sessionId: 'abc', createIfMissing: true })).rejects.toThrow(
      /^\.auggy\/sessions\/abc is a symbolic link/,
    );
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it('a state file that is a link is refused, and the file it points at is left alone', async () => {
    const dir = agentDir();
    const session = await openSession({ agentDir: dir, agentName: 'demo' });
    const target = join(agentDir(), 'outside.json');
    writeFileSync(target, '{"mine": true}');
    symlinkSync(target, join(folderOf(session), 'board.json'));
    await expect(openSession({ agentDir: dir, agentName: 'demo', sessionId: session.id })).rejects.toThrow(
      /board\.json is a symbolic link .* replace it with a real file/,
    );
    expect(() => session.readState('board.json')).toThrow(SessionError);
    expect(readFileSync(target, 'utf8')).toBe('{"mine": true}');
  });
});

describe('the transcript rebuilt from a session', () => {
  it('gives a tool call left without a result a stand-in result, so providers accept the history', async () => {
    const entries: SessionEntry[] = [
      { kind: 'user', turnId: 't', text: 'go', at: 'now' },
      { kind: 'message', turnId: 't', message: { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'lookup', input: {} }] } },
      { kind: 'user', turnId: 't2', text: 'again', at: 'now' },
    ];
    const transcript = transcriptFromEntries(entries);
    expect(transcript.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user']);
    expect(JSON.stringify(transcript[2])).toContain('interrupted');
  });
});
