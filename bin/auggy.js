#!/usr/bin/env node
// Thin entry: all behaviour lives in dist/ (compiled from src/), bundled into dist/bundle/ so
// start-up does not resolve and read hundreds of module files one by one; bin/bundle-loader.js
// compiles them with the V8 code cache the build made.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const [flag, ...rest] = process.argv.slice(2);
if ((flag === '--version' || flag === '-v') && rest.length === 0) {
  // Scripts probe an install with --version; it needs no command parser, so it loads none.
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`${version}\n`);
} else {
  const { createBundleLoader } = await import('./bundle-loader.js');
  const { main } = createBundleLoader().load(fileURLToPath(new URL('../dist/bundle/main.cjs', import.meta.url)));
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
