import { describe, expect, it } from 'vitest';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inputHistoryPath, loadInputHistory, saveInputHistoryEntry, withEntry } from '../../src/hosts/tui/input-history.js';
import { tempDir } from '../helpers/temp-dir.js';

describe('input history on disk', () => {
  it('is kept per agent folder under .auggy, and reloads', async () => {
    const dir = tempDir();
    const path = inputHistoryPath(dir);
    expect(path).toBe(join(dir, '.auggy', 'input-history.json'));
    expect(loadInputHistory(path)).toEqual([]);
    await saveInputHistoryEntry(path, 'hello');
    await saveInputHistoryEntry(path, 'deploy the api');
    expect(loadInputHistory(path)).toEqual(['hello', 'deploy the api']);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ version: 1, entries: ['hello', 'deploy the api'] });
  });

  it('merges what another chat in the same folder saved meanwhile', async () => {
    const path = inputHistoryPath(tempDir());
    await saveInputHistoryEntry(path, 'from chat one');
    await saveInputHistoryEntry(path, 'from chat two');
    expect((await saveInputHistoryEntry(path, 'from chat one again')).entries).toEqual(['from chat one', 'from chat two', 'from chat one again']);
  });

  it('skips blank lines and a repeat of the last entry, and keeps the newest within the limit', () => {
    expect(withEntry(['a'], 'a')).toEqual(['a']);
    expect(withEntry(['a'], '  ')).toEqual(['a']);
    expect(withEntry(['a', 'b', 'c'], 'd', 3)).toEqual(['b', 'c', 'd']);
  });

  it('treats an unreadable file as an empty history', () => {
    const dir = tempDir();
    mkdirSync(join(dir, '.auggy'));
    writeFileSync(inputHistoryPath(dir), '{ not json');
    expect(loadInputHistory(inputHistoryPath(dir))).toEqual([]);
  });

  it('reports a write failure as a sentence instead of throwing', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, '.auggy'));
    chmodSync(join(dir, '.auggy'), 0o500);
    const result = await saveInputHistoryEntry(inputHistoryPath(dir), 'hello');
    chmodSync(join(dir, '.auggy'), 0o700);
    // root may write anyway; when it cannot, the reason names the file.
    if (result.error) expect(result.error).toMatch(/input history not saved to .*input-history\.json/);
    expect(result.entries).toEqual(['hello']);
  });
});
