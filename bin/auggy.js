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
  const { enableCompileCache } = require('node:module');
  // Node's own compile cache (22.1 and later): the bundle's modules are compiled once and read
  // back as bytecode by later starts. Nothing on Node 20, which has none.
  if (enableCompileCache !== undefined) enableCompileCache(require('./compile-cache-dir.js').compileCacheDir());
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
