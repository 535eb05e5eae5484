#!/usr/bin/env node
// Thin entry: all behaviour lives in dist/ (compiled from src/), bundled into dist/bundle/ so
// start-up does not resolve and read hundreds of module files one by one.
import { main } from '../dist/bundle/main.js';

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
