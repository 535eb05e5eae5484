import { describe, expect, it } from 'vitest';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listSessions, openSession, SessionError } from '../../src/session/session.js';
import { folderStore } from '../../src/session/folder-store.js';
import { transcriptFromEntries } from '../../src/session/transcript.js';
import type { SessionEntry } from '../../src/session/entries.js';

function agentDir(): string {
  return mkdtempSync(join(tmpdir(), 'auggy-session-'));
}

describe('sessions', () => {
  it('creates a private folder with a header line and resumes it by id', () => {
    const dir = agentDir();
    const session = openSession({ agentDir: dir, agentName: 'demo' });
    expect(statSync(session.dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(session.dir, 'events.jsonl')).mode & 0o777).toBe(0o600);
    session.append({ kind: 'user', turnId: 't1', text: 'hi', at: 'now' });
    const resumed = openSession({ agentDir: dir, agentName: 'demo', sessionId: session.id });
    expect(resumed.resumed).toBe(true);
    expect(resumed.entries().entries.map((e) => e.kind)).toEqual(['header', 'user']);
  });

  it('--continue picks the newest session', () => {
    const dir = agentDir();
    const older = openSession({ agentDir: dir, agentName: 'demo' });
    const past = new Date(Date.now() - 60_000);
    utimesSync(join(older.dir, 'events.jsonl'), past, past);
    const newer = openSession({ agentDir: dir, agentName: 'demo' });
    newer.append({ kind: 'user', turnId: 't', text: 'latest', at: 'now' });
    expect(listSessions(dir)[0]).toBe(newer.id);
    expect(openSession({ agentDir: dir, agentName: 'demo', continueLatest: true }).id).toBe(newer.id);
  });

  it('refuses ids with path characters and unknown ids, touching nothing', () => {
    const dir = agentDir();
    expect(() => openSession({ agentDir: dir, agentName: 'demo', sessionId: '../escape' })).toThrow(SessionError);
    expect(() => openSession({ agentDir: dir, agentName: 'demo', sessionId: 'unknown' })).toThrow(/no session "unknown"/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a cut last line is moved to events.jsonl.broken when the session opens, with one warning; a later open is silent', () => {
    const dir = agentDir();
    const session = openSession({ agentDir: dir, agentName: 'demo' });
    session.append({ kind: 'user', turnId: 't', text: 'kept', at: 'now' });
    appendFileSync(join(session.dir, 'events.jsonl'), '{"kind":"user","text":"cut of');
    const resumed = openSession({ agentDir: dir, agentName: 'demo', sessionId: session.id });
    const { entries, warnings } = resumed.entries();
    expect(entries.map((e) => e.kind)).toEqual(['header', 'user']);
    expect(warnings).toEqual([expect.stringMatching(/ended in a cut-off line .* moved to events\.jsonl\.broken/)]);
    expect(readFileSync(join(session.dir, 'events.jsonl.broken'), 'utf8')).toBe('{"kind":"user","text":"cut of\n');
    // The next append starts a line of its own instead of being glued onto the cut one.
    resumed.append({ kind: 'user', turnId: 't2', text: 'next', at: 'now' });
    const again = openSession({ agentDir: dir, agentName: 'demo', sessionId: session.id }).entries();
    expect(again.warnings).toEqual([]);
    expect(again.entries.map((e) => (e.kind === 'user' ? e.text : e.kind))).toEqual(['header', 'kept', 'next']);
  });

  it('a damaged line in the middle is skipped with a warning naming it', () => {
    const session = openSession({ agentDir: agentDir(), agentName: 'demo' });
    appendFileSync(join(session.dir, 'events.jsonl'), '{"kind":"user","te\n');
    session.append({ kind: 'user', turnId: 't', text: 'after', at: 'now' });
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
    writing.writeState('board.json', { version: 1, lines: {} });
    expect(heard).toEqual(['board.json']);
    // A server closes a thread's handle when it drops the conversation: nothing of it may stay behind.
    await watching.close();
    writing.writeState('board.json', { version: 1, lines: { a: { text: 'x', by: 'agent', at: 'now' } } });
    expect(heard).toEqual(['board.json']);
  });

  it('a state file another writer replaced, or edited in place, is read afresh; one removed reads as missing', () => {
    const dir = agentDir();
    const reader = openSession({ agentDir: dir, agentName: 'demo' });
    const writer = openSession({ agentDir: dir, agentName: 'demo', sessionId: reader.id });
    expect(reader.readState('board.json')).toEqual({ status: 'missing' });
    writer.writeState('board.json', { n: 1 });
    expect(reader.readState('board.json')).toEqual({ status: 'ok', value: { n: 1 } });
    writer.writeState('board.json', { n: 2 });
    expect(reader.readState('board.json')).toEqual({ status: 'ok', value: { n: 2 } });
    // A person's editor writing the same file in place, to the same length.
    writeFileSync(join(reader.dir, 'board.json'), '{"n": 3}\n');
    expect(reader.readState('board.json')).toEqual({ status: 'ok', value: { n: 3 } });
    writeFileSync(join(reader.dir, 'board.json'), '{"n": 4}\n');
    expect(reader.readState('board.json')).toEqual({ status: 'ok', value: { n: 4 } });
    writer.removeState('board.json');
    expect(reader.readState('board.json')).toEqual({ status: 'missing' });
    // A value read is the reader's own: changing it changes nothing the next read returns.
    writer.writeState('board.json', { lines: ['a'] });
    const first = reader.readState('board.json');
    if (first.status === 'ok') (first.value as { lines: string[] }).lines.push('changed');
    expect(reader.readState('board.json')).toEqual({ status: 'ok', value: { lines: ['a'] } });
  });

  it("a new thread's session made off the thread (serve) is a private folder with its header, and two opens of it at once get the one session", async () => {
    const dir = agentDir();
    const store = folderStore({ dir, name: 'demo' }, { writeBehind: true });
    const [first, second] = await Promise.all([
      store.open({ sessionId: 'thread-1', createIfMissing: true }),
      store.open({ sessionId: 'thread-1', createIfMissing: true }),
    ]);
    expect(first.dir).toBe(second.dir);
    expect(statSync(first.dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(first.dir, 'events.jsonl')).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(first.dir, 'events.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line).kind)).toEqual(['header']);
    expect([first.resumed, second.resumed].sort()).toEqual([false, true]);
    await Promise.all([first.close(), second.close()]);
  });

  it('under serve, a session opened beside its writer (a board write beside a run) never makes the writer busy', async () => {
    const dir = agentDir();
    const store = folderStore({ dir, name: 'demo' }, { writeBehind: true });
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

  it('sets a corrupt state file aside rather than deleting it', () => {
    const session = openSession({ agentDir: agentDir(), agentName: 'demo' });
    writeFileSync(join(session.dir, 'user_ask.json'), '{not json');
    const read = session.readState('user_ask.json');
    expect(read.status).toBe('corrupt');
    expect(readdirSync(session.dir).some((name) => name.startsWith('user_ask.json.corrupt-'))).toBe(true);
    session.writeState('user_ask.json', { text: 'x' });
    expect(session.readState('user_ask.json')).toEqual({ status: 'ok', value: { text: 'x' } });
  });
});

describe('nothing under .auggy is written through a link', () => {
  it('a linked .auggy, .auggy/sessions or session folder is refused with one sentence, and nothing lands at the target', () => {
    const elsewhere = agentDir();
    const linkedAuggy = agentDir();
    symlinkSync(elsewhere, join(linkedAuggy, '.auggy'));
    expect(() => openSession({ agentDir: linkedAuggy, agentName: 'demo' })).toThrow(/^\.auggy is a symbolic link \(to \S+\); auggy writes nothing under \.auggy through a link, so replace it with a real folder$/);

    const linkedSessions = agentDir();
    mkdirSync(join(linkedSessions, '.auggy'));
    symlinkSync(elsewhere, join(linkedSessions, '.auggy', 'sessions'));
    expect(() => openSession({ agentDir: linkedSessions, agentName: 'demo', continueLatest: true })).toThrow(/^\.auggy\/sessions is a symbolic link/);

    const linkedSession = agentDir();
    mkdirSync(join(linkedSession, '.auggy', 'sessions'), { recursive: true });
    symlinkSync(elsewhere, join(linkedSession, '.auggy', 'sessions', 'abc'));
    expect(() => openSession({ agentDir: linkedSession, agentName: 'demo', sessionId: 'abc', createIfMissing: true })).toThrow(/^\.auggy\/sessions\/abc is a symbolic link/);
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it('a state file that is a link is refused, and the file it points at is left alone', () => {
    const dir = agentDir();
    const session = openSession({ agentDir: dir, agentName: 'demo' });
    const target = join(agentDir(), 'outside.json');
    writeFileSync(target, '{"mine": true}');
    symlinkSync(target, join(session.dir, 'board.json'));
    expect(() => openSession({ agentDir: dir, agentName: 'demo', sessionId: session.id })).toThrow(/board\.json is a symbolic link .* replace it with a real file/);
    expect(() => session.readState('board.json')).toThrow(SessionError);
    expect(readFileSync(target, 'utf8')).toBe('{"mine": true}');
  });
});

describe('the transcript rebuilt from a session', () => {
  it('gives a tool call left without a result a stand-in result, so providers accept the history', () => {
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
