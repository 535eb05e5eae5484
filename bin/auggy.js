#!/usr/bin/env node
'use strict';
// Thin entry: all behaviour lives in dist/ (compiled from src/), bundled into dist/bundle/ so
// start-up does not resolve and read hundreds of module files one by one; bundle-loader.js
// compiles them with the V8 code cache the build made. This file and bundle-loader.js are
// CommonJS (bin/package.json): Node starts a CommonJS entry without setting up its ES module
// loader, which an ES module entry pays for before its first line runs.

const [flag, ...rest] = process.argv.slice(2);
if ((flag === '--version' || flag === '-v') && rest.length === 0) {
  // Scripts probe an install with --version; it needs no command parser, so it loads none.
  const { version } = JSON.parse(require('node:fs').readFileSync(`${__dirname}/../package.json`, 'utf8'));
  process.stdout.write(`${version}\n`);
} else {
  const { createBundleLoader } = require('./bundle-loader.js');
  const { main } = createBundleLoader().load(`${__dirname}/../dist/bundle/main.cjs`);
  main(process.argv).then(
    (code) => {
      process.exitCode = code;
    },
    (error) => {
      // Last-resort guard: an unexpected error is one line, never a stack trace.
      process.stderr.write(`auggy: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
