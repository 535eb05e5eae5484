import { execa } from 'execa';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AUGGY_BIN, copyExample } from '../helpers/agent-fixture.js';
import { tempDir } from '../helpers/temp-dir.js';

/** Node 22.8 and later; on Node 20 auggy starts without a compile cache. */
const nodeHasCompileCache = 'enableCompileCache' in nodeModule;

/** The demo's `--print` with only these variables: no cache setting leaks in from the machine. */
function printDemo(dir: string, env: Record<string, string>) {
  return execa(process.execPath, [AUGGY_BIN, 'run', dir, '--print', 'hello'], {
    reject: false,
    extendEnv: false,
    env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', ...env },
  });
}

/** Every file under `dir` but a session's, relative to it. */
function filesOutsideSessions(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .filter((path) => path.split(sep)[0] !== '.auggy')
    .sort();
}

/** The compiled modules Node keeps under `dir` (one folder per Node version and V8 flags). */
function cachedModules(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name);
}

describe('the compile cache', () => {
  it.runIf(nodeHasCompileCache)("is kept in the person's cache folder, and nothing but the session is written into the agent folder", async () => {
    const dir = copyExample();
    const before = filesOutsideSessions(dir);
    const home = tempDir('auggy-home-');
    const result = await printDemo(dir, { HOME: home });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(cachedModules(join(home, '.cache', 'auggy', 'compile-cache')).length).toBeGreaterThan(0);
    expect(filesOutsideSessions(dir)).toEqual(before);
  });

  it.runIf(nodeHasCompileCache)('goes under XDG_CACHE_HOME when it is set, and where NODE_COMPILE_CACHE says when that is', async () => {
    const home = tempDir('auggy-home-');
    const xdg = tempDir('auggy-xdg-');
    expect((await printDemo(copyExample(), { HOME: home, XDG_CACHE_HOME: xdg })).exitCode).toBe(0);
    expect(cachedModules(join(xdg, 'auggy', 'compile-cache')).length).toBeGreaterThan(0);

    const chosen = join(tempDir('auggy-node-cache-'), 'cache');
    const before = cachedModules(xdg).length;
    expect((await printDemo(copyExample(), { HOME: home, XDG_CACHE_HOME: xdg, NODE_COMPILE_CACHE: chosen })).exitCode).toBe(0);
    expect(cachedModules(chosen).length).toBeGreaterThan(0);
    expect(cachedModules(xdg)).toHaveLength(before);
    expect(cachedModules(home)).toEqual([]);
  });

  it.runIf(!nodeHasCompileCache)('is not written on a Node without one', async () => {
    const home = tempDir('auggy-home-');
    expect((await printDemo(copyExample(), { HOME: home })).exitCode).toBe(0);
    expect(readdirSync(home)).toEqual([]);
  });

  it('auggy runs the same, and says nothing of it, when its cache folder cannot be made', async () => {
    const home = tempDir('auggy-home-');
    // A file where a folder would have to be: mkdir fails even for root.
    writeFileSync(join(home, '.cache'), 'not a folder');
    const cached = await printDemo(copyExample(), { HOME: tempDir('auggy-home-') });
    const uncached = await printDemo(copyExample(), { HOME: home });
    expect(uncached.exitCode).toBe(0);
    expect(uncached.stderr).toBe(cached.stderr);
    expect(uncached.stdout).toBe(cached.stdout);
    expect(uncached.stdout).toContain("I'm the demo agent");
  });
});
