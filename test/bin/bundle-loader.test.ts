import { existsSync, mkdtempSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Script } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/agent-fixture.js';

interface BundleLoader {
  load(file: string): unknown;
  scriptOf(file: string): Script;
}
const { createBundleLoader } = createRequire(import.meta.url)('../../bin/bundle-loader.js') as {
  createBundleLoader(options?: { useCache?: boolean }): BundleLoader;
};

function chunkFolder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'auggy-bundle-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

/** What scripts/code-cache.mjs does at build time, for one folder of chunks. */
function writeCaches(dir: string): void {
  const loader = createBundleLoader({ useCache: false });
  for (const name of readdirSync(dir).filter((file) => file.endsWith('.cjs'))) {
    writeFileSync(join(dir, `${name}.cache`), loader.scriptOf(join(dir, name)).createCachedData());
  }
}

describe('bundle loader', () => {
  it('runs chunks from their code cache, each chunk once, with relative requires between them', () => {
    const dir = chunkFolder({
      'main.cjs': 'const part = require("./part.cjs"); module.exports = { total: part.count() + part.count(), same: require("./part.cjs") === part };',
      'part.cjs': 'let n = 0; exports.count = () => ++n;',
    });
    writeCaches(dir);
    const loader = createBundleLoader();
    expect(loader.load(join(dir, 'main.cjs'))).toEqual({ total: 3, same: true });
    expect(loader.scriptOf(join(dir, 'main.cjs')).cachedDataRejected).toBe(false);
    expect(loader.scriptOf(join(dir, 'part.cjs')).cachedDataRejected).toBe(false);
  });

  it('compiles from source when V8 rejects the cache', () => {
    const dir = chunkFolder({ 'main.cjs': 'module.exports = 42;', 'main.cjs.cache': 'not a V8 code cache' });
    const loader = createBundleLoader();
    expect(loader.load(join(dir, 'main.cjs'))).toBe(42);
    expect(loader.scriptOf(join(dir, 'main.cjs')).cachedDataRejected).toBe(true);
  });

  it('ignores a cache older than its chunk, so an edited chunk runs its own source', () => {
    const dir = chunkFolder({ 'main.cjs': 'module.exports = "before";' });
    writeCaches(dir);
    // The same length: V8 checks a cache against the source's length only.
    writeFileSync(join(dir, 'main.cjs'), 'module.exports = "after!";');
    const cacheTime = statSync(join(dir, 'main.cjs')).mtime.getTime() / 1000 - 60;
    utimesSync(join(dir, 'main.cjs.cache'), cacheTime, cacheTime);
    expect(createBundleLoader().load(join(dir, 'main.cjs'))).toBe('after!');
  });

  it('gives code run from its cache an ES module package through __import', async () => {
    // chalk is an ES module only; cached code cannot run import() itself in Node 20.
    const dir = chunkFolder({ 'main.cjs': 'module.exports = async () => typeof (await __import("chalk")).default.bold;' });
    writeCaches(dir);
    const loader = createBundleLoader();
    const run = loader.load(join(dir, 'main.cjs')) as () => Promise<string>;
    expect(loader.scriptOf(join(dir, 'main.cjs')).cachedDataRejected).toBe(false);
    expect(await run()).toBe('function');
  });

  it('the build leaves a code cache beside every chunk of dist/bundle', () => {
    const bundle = join(REPO_ROOT, 'dist', 'bundle');
    const chunks = readdirSync(bundle).filter((name) => name.endsWith('.cjs'));
    expect(chunks).toContain('main.cjs');
    // Ink and its layout engine are CommonJS chunks too (scripts/ink-without-top-level-await.mjs).
    expect(readdirSync(bundle).filter((name) => name.endsWith('.mjs'))).toEqual([]);
    for (const chunk of chunks) {
      expect(existsSync(join(bundle, `${chunk}.cache`)), chunk).toBe(true);
      expect(statSync(join(bundle, `${chunk}.cache`)).size, chunk).toBeGreaterThan(0);
    }
  });
});
