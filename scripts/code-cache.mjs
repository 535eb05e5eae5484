// `npm run build`, after the bundle: writes the V8 code cache of every chunk (CHUNK.cjs.cache,
// read by bin/bundle-loader.js). The cache holds the bytecode of each function compiled so far,
// so auggy is run first, in a copy of examples/demo in a temporary folder: the scripted demo's
// `--print`, then the chat until its first frame, on terminal streams made here (no terminal is
// needed, so a build runs the same without one). What both run is then in the cache too, and
// not only each chunk's top level.
// Run by scripts/bundle.mjs in a process of its own with no Node flags, as bin/auggy.js runs:
// V8 rejects a cache made under other flags.
import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import tty from 'node:tty';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const { createBundleLoader } = createRequire(import.meta.url)('../bin/bundle-loader.js');
const root = fileURLToPath(new URL('..', import.meta.url));
const bundle = join(root, 'dist', 'bundle');
const loader = createBundleLoader({ useCache: false });
const CTRL_D = '\u0004';
/** The chat's prompt; once it is on the screen the first frame has been drawn. */
const PROMPT = 'Type a message';

/** A terminal as Ink sees one: a stdout with a size, a stdin with raw mode. */
function terminalStreams() {
  let screen = '';
  const watchers = [];
  const stdout = new Writable({
    write(chunk, _encoding, done) {
      screen += String(chunk);
      for (const watch of watchers) watch(screen);
      done();
    },
  });
  Object.assign(stdout, { isTTY: true, columns: 100, rows: 30, getColorDepth: () => 8, hasColors: () => true });
  const stdin = new PassThrough();
  Object.assign(stdin, { isTTY: true, setRawMode: () => stdin, ref: () => stdin, unref: () => stdin });
  return { stdout, stdin, onScreen: (watch) => watchers.push(watch) };
}

/** `auggy run DIR` on the streams above, quit with Ctrl+D once its prompt is drawn. */
async function chatUntilPrompt(main, dir) {
  const { stdout, stdin, onScreen } = terminalStreams();
  const saved = { stdout: Object.getOwnPropertyDescriptor(process, 'stdout'), stdin: Object.getOwnPropertyDescriptor(process, 'stdin'), isatty: tty.isatty };
  Object.defineProperty(process, 'stdout', { configurable: true, get: () => stdout });
  Object.defineProperty(process, 'stdin', { configurable: true, get: () => stdin });
  tty.isatty = (fd) => fd === 0 || saved.isatty(fd);
  let quitSent = false;
  onScreen((screen) => {
    if (quitSent || !screen.includes(PROMPT)) return;
    quitSent = true;
    // After the frame is out, as a person's first key would come.
    setImmediate(() => stdin.write(CTRL_D));
  });
  let timer;
  const noPrompt = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error('the chat drew no prompt within 30 s')), 30_000);
  });
  try {
    const code = await Promise.race([main(['node', 'auggy', 'run', dir]), noPrompt]);
    if (code !== 0) throw new Error(`the chat ended with exit code ${code}`);
  } finally {
    clearTimeout(timer);
    Object.defineProperty(process, 'stdout', saved.stdout);
    Object.defineProperty(process, 'stdin', saved.stdin);
    tty.isatty = saved.isatty;
  }
}

const work = mkdtempSync(join(tmpdir(), 'auggy-code-cache-'));
try {
  cpSync(join(root, 'examples', 'demo'), join(work, 'demo'), { recursive: true });
  const { main } = loader.load(join(bundle, 'main.cjs'));
  const code = await main(['node', 'auggy', 'run', join(work, 'demo'), '--print', 'hello']);
  if (code !== 0) process.exitCode = 2;
  try {
    await chatUntilPrompt(main, join(work, 'demo'));
  } catch (error) {
    process.stderr.write(`the chat: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 3;
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

for (const name of readdirSync(bundle).filter((name) => name.endsWith('.cjs'))) {
  const file = join(bundle, name);
  writeFileSync(`${file}.cache`, loader.scriptOf(file).createCachedData());
}
// The runs' own handles (none should be left) do not hold the build.
process.exit();
