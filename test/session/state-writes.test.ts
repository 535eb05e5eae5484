import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSession } from '../../src/session/session.js';
import { folderStore } from '../../src/session/folder-store.js';
import { folderOf } from '../helpers/session-folder.js';

function agentDir(): string {
  return mkdtempSync(join(tmpdir(), 'auggy-state-writes-'));
}

const onDisk = (dir: string, name: string): unknown => JSON.parse(readFileSync(join(dir, name), 'utf8'));
const tempFiles = (dir: string) => readdirSync(dir).filter((name) => name.endsWith('.tmp'));

describe('state files of a folder session', () => {
  it('a write is read back at once, and is on disk whole when its promise resolves', async () => {
    const session = await openSession({ agentDir: agentDir(), agentName: 'demo' });
    const saved = session.writeState('board.json', { lines: { a: 'one' } });
    expect(session.readState('board.json')).toEqual({ status: 'ok', value: { lines: { a: 'one' } } });
    // Until then the file is missing or whole, never part of the write.
    if (existsSync(join(folderOf(session), 'board.json'))) expect(onDisk(folderOf(session), 'board.json')).toEqual({ lines: { a: 'one' } });
    await saved;
    expect(onDisk(folderOf(session), 'board.json')).toEqual({ lines: { a: 'one' } });
    expect(tempFiles(folderOf(session))).toEqual([]);
  });

  it('writes are made in the order they were asked for: of many in a row the last one stays', async () => {
    const session = await openSession({ agentDir: agentDir(), agentName: 'demo' });
    const writes = Array.from({ length: 50 }, (_, n) => session.writeState('user_ask.json', { n }));
    expect(session.readState('user_ask.json')).toEqual({ status: 'ok', value: { n: 49 } });
    await Promise.all(writes);
    expect(onDisk(folderOf(session), 'user_ask.json')).toEqual({ n: 49 });
    expect(tempFiles(folderOf(session))).toEqual([]);
  });

  it('a removal after a write still on its way leaves no file', async () => {
    const session = await openSession({ agentDir: agentDir(), agentName: 'demo' });
    const written = session.writeState('user_ask.json', { text: 'deploy' });
    const removed = session.removeState('user_ask.json');
    expect(session.readState('user_ask.json')).toEqual({ status: 'missing' });
    await Promise.all([written, removed]);
    expect(existsSync(join(folderOf(session), 'user_ask.json'))).toBe(false);
  });

  it('another handle of the same store hears of a write once it is saved, and opening it removes no write in progress', async () => {
    const dir = agentDir();
    const store = folderStore({ dir, name: 'demo' });
    const writer = await store.open({});
    const heard: string[] = [];
    const first = writer.writeState('board.json', { lines: { progress: 'building' } });
    // Opening the session again cleans up crash leftovers: this process's own write in flight is not one.
    const observer = await store.open({ sessionId: writer.id, observer: true });
    await first;
    observer.watchState((name) => heard.push(name));
    expect(observer.readState('board.json')).toEqual({ status: 'ok', value: { lines: { progress: 'building' } } });
    await writer.writeState('board.json', { lines: { progress: 'pushed' } });
    expect(heard).toEqual(['board.json']);
    expect(observer.readState('board.json')).toEqual({ status: 'ok', value: { lines: { progress: 'pushed' } } });
    await writer.close();
    expect(onDisk(folderOf(writer), 'board.json')).toEqual({ lines: { progress: 'pushed' } });
    expect(tempFiles(folderOf(writer))).toEqual([]);
  });

  it('a write that fails is told by its own promise, once, and leaves the other writes and flush alone', async () => {
    const session = await openSession({ agentDir: agentDir(), agentName: 'demo' });
    // A folder where the state file should be: the temp file is written, the rename over it fails.
    mkdirSync(join(folderOf(session), 'board.json'));
    writeFileSync(join(folderOf(session), 'board.json', 'x'), 'x');
    const failed = session.writeState('board.json', { lines: {} });
    const other = session.writeState('user_ask.json', { text: 'x' });
    await expect(failed).rejects.toThrow(/board\.json could not be written/);
    await expect(other).resolves.toBeUndefined();
    await expect(session.flush()).resolves.toBeUndefined();
    expect(tempFiles(folderOf(session))).toEqual([]);
  });
});
