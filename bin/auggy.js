#!/usr/bin/env node
'use strict';
// Thin entry: all behaviour lives in dist/bundle/ (src/ and its dependencies joined into a few
// ES modules, see rolldown.config.mjs). This file is CommonJS (bin/package.json): Node starts a
// CommonJS entry without setting up its ES module loader, so `--version` pays for none.

const [flag, ...rest] = process.argv.slice(2);
if ((flag === '--version' || flag === '-v') && rest.length === 0) {
  // Scripts probe an install with --version; it needs no command parser, so it loads none.
  const { version } = JSON.parse(require('node:fs').readFileSync(`${__dirname}/../package.json`, 'utf8'));
  process.stdout.write(`${version}\n`);
} else {
  if (flag === 'serve' && process.env.UV_THREADPOOL_SIZE === undefined) {
    // serve does its file work on libuv's threads (state files' fsyncs, sessions, locks), and an
    // fsync holds a thread until the disk's journal commits: with libuv's 4, runs waited for a
    // free thread while the server's own sat idle (docs/performance.md). libuv sizes its pool at
    // the first task, and loading the bundle's ES modules queues some, so serve's is queued
    // here, first; the variable is taken back at once so that MCP servers serve starts do not
    // inherit it.
    process.env.UV_THREADPOOL_SIZE = '12';
    require('node:fs').stat('.', () => undefined);
    delete process.env.UV_THREADPOOL_SIZE;
  }
  const { enableCompileCache } = require('node:module');
  // Node's own compile cache (module.enableCompileCache, Node 22.8 and later): each module of
  // the bundle is compiled once, and later starts read its bytecode back. Where the folder cannot
  // be made, Node goes on without it, silently. Node 20 has no such cache: it compiles every start.
  const cacheDir = enableCompileCache === undefined ? undefined : require('./compile-cache-dir.js').compileCacheDir();
  if (cacheDir !== undefined) enableCompileCache(cacheDir);
  import('../dist/bundle/main.js')
    .then(({ main }) => main(process.argv))
    .then(
      (code) => {
        process.exitCode = code;
      },
      (error) => {
        // Last-resort guard: an unexpected error is one line, never a stack trace; the line says
        // where in src/ it was thrown, read through the bundle's source maps only now.
        process.stderr.write(`auggy: ${require('./unexpected-error.js').describeUnexpectedError(error)}\n`);
        process.exitCode = 1;
      },
    );
}
