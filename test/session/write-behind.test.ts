import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSession, StateWatchers } from '../../src/session/session.js';
import { folderStore } from '../../src/session/folder-store.js';

function agentDir(): string {
  return mkdtempSync(join(tmpdir(), 'auggy-write-behind-'));
}

const onDisk = (dir: string, name: string): unknown => JSON.parse(readFileSync(join(dir, name), 'utf8'));
const tempFiles = (dir: string) => readdirSync(dir).filter((name) => name.endsWith('.tmp'));

describe('state files written behind (serve)', () => {
  it('a write is read back at once, and is on disk whole once the session is flushed', async () => {
    const session = openSession({ agentDir: agentDir(), agentName: 'demo', writeBehind: true });
    session.writeState('board.json', { lines: { a: 'one' } });
    expect(session.readState('board.json')).toEqual({ status: 'ok', value: { lines: { a: 'one' } } });
    // Until then the file is missing or whole, never part of the write.
    if (existsSync(join(session.dir, 'board.json'))) expect(onDisk(session.dir, 'board.json')).toEqual({ lines: { a: 'one' } });
    await session.flush();
    expect(onDisk(session.dir, 'board.json')).toEqual({ lines: { a: 'one' } });
    expect(tempFiles(session.dir)).toEqual([]);
  });

  it('of many writes in a row the last one is what stays', async () => {
    const session = openSession({ agentDir: agentDir(), agentName: 'demo', writeBehind: true });
    for (let n = 0; n < 50; n++) session.writeState('user_ask.json', { n });
    expect(session.readState('user_ask.json')).toEqual({ status: 'ok', value: { n: 49 } });
    await session.flush();
    expect(onDisk(session.dir, 'user_ask.json')).toEqual({ n: 49 });
    expect(tempFiles(session.dir)).toEqual([]);
  });

  it('a removal after a write still on its way leaves no file', async () => {
    const session = openSession({ agentDir: agentDir(), agentName: 'demo', writeBehind: true });
    session.writeState('user_ask.json', { text: 'deploy' });
    session.removeState('user_ask.json');
    expect(session.readState('user_ask.json')).toEqual({ status: 'missing' });
    await session.flush();
    expect(existsSync(join(session.dir, 'user_ask.json'))).toBe(false);
    expect(tempFiles(session.dir)).toEqual([]);
  });

  it('another handle of the same store reads the write at once, and opening it removes no write in progress', async () => {
    const dir = agentDir();
    const store = folderStore({ dir, name: 'demo' }, { writeBehind: true });
    const writer = await store.open({});
    const heard: string[] = [];
    writer.writeState('board.json', { lines: { progress: 'building' } });
    // Opening the session again cleans up crash leftovers: this process's own write in flight is not one.
    const observer = await store.open({ sessionId: writer.id, observer: true });
    observer.watchState((name) => heard.push(name));
    expect(observer.readState('board.json')).toEqual({ status: 'ok', value: { lines: { progress: 'building' } } });
    writer.writeState('board.json', { lines: { progress: 'pushed' } });
    expect(heard).toEqual(['board.json']);
    expect(observer.readState('board.json')).toEqual({ status: 'ok', value: { lines: { progress: 'pushed' } } });
    await writer.close();
    expect(onDisk(writer.dir, 'board.json')).toEqual({ lines: { progress: 'pushed' } });
    expect(tempFiles(writer.dir)).toEqual([]);
  });

  it('a write that fails behind is reported by the next flush, once', async () => {
    const session = openSession({ agentDir: agentDir(), agentName: 'demo', writeBehind: true, watchers: new StateWatchers() });
    // A folder where the state file should be: the temp file is written, the rename over it fails.
    mkdirSync(join(session.dir, 'board.json'));
    writeFileSync(join(session.dir, 'board.json', 'x'), 'x');
    session.writeState('board.json', { lines: {} });
    await expect(session.flush()).rejects.toThrow(/board\.json could not be written/);
    await expect(session.flush()).resolves.toBeUndefined();
    expect(tempFiles(session.dir)).toEqual([]);
  });
});
