// `npm run build`, after the bundle: writes the V8 code cache of every chunk (CHUNK.cjs.cache,
// read by bin/bundle-loader.js). The cache holds the bytecode of each function compiled so far,
// so the scripted demo is run once first, in a copy of examples/demo in a temporary folder:
// what `--print` runs is then in the cache too, and not only each chunk's top level.
// Run by scripts/bundle.mjs in a process of its own with no Node flags, as bin/auggy.js runs:
// V8 rejects a cache made under other flags.
import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const { createBundleLoader } = createRequire(import.meta.url)('../bin/bundle-loader.js');
const root = fileURLToPath(new URL('..', import.meta.url));
const bundle = join(root, 'dist', 'bundle');
const loader = createBundleLoader({ useCache: false });
const work = mkdtempSync(join(tmpdir(), 'auggy-code-cache-'));
try {
  cpSync(join(root, 'examples', 'demo'), join(work, 'demo'), { recursive: true });
  const { main } = loader.load(join(bundle, 'main.cjs'));
  const code = await main(['node', 'auggy', 'run', join(work, 'demo'), '--print', 'hello']);
  if (code !== 0) process.exitCode = 2;
} finally {
  rmSync(work, { recursive: true, force: true });
}

for (const name of readdirSync(bundle).filter((name) => name.endsWith('.cjs'))) {
  const file = join(bundle, name);
  writeFileSync(`${file}.cache`, loader.scriptOf(file).createCachedData());
}
// The run's own handles (none should be left) do not hold the build.
process.exit();
