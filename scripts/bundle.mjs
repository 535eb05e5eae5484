// `npm run build`, after tsc: joins dist/ into dist/bundle/ (see rolldown.config.mjs), quietly,
// then writes the chunks' V8 code cache (scripts/code-cache.mjs).
// Chunk names carry a content hash, so the folder is emptied first: otherwise every build would
// leave the previous build's chunks beside the new ones.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';
import configs from '../rolldown.config.mjs';

rmSync(new URL('../dist/bundle', import.meta.url), { recursive: true, force: true });
for (const config of configs) await build(config);

// No inherited NODE_OPTIONS: the cache must be made under the flags bin/auggy.js runs with. No
// AUGGY_* settings either (AUGGY_MODEL, AUGGY_BASE_URL, ...): the demo must run on its scripted
// model whatever the person building has set for their own agents.
const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'NODE_OPTIONS' && !name.startsWith('AUGGY_')));
const cache = spawnSync(process.execPath, [fileURLToPath(new URL('code-cache.mjs', import.meta.url))], {
  env,
  stdio: ['ignore', 'ignore', 'pipe'],
  encoding: 'utf8',
});
// Without a cache auggy still runs, only slower to start: say so, and keep the build.
if (cache.status === 2) process.stderr.write('bundle: the scripted demo failed, so the code cache holds only each chunk\'s top level\n');
else if (cache.status === 3) process.stderr.write(`bundle: the chat did not start (${cache.stderr.trim()}), so the code cache holds nothing of its first frame\n`);
else if (cache.status !== 0) process.stderr.write(`bundle: no code cache written: ${cache.stderr.trim() || `exit ${cache.status}`}\n`);
