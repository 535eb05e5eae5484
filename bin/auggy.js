#!/usr/bin/env node
// Thin entry: all behaviour lives in dist/ (compiled from src/).
import { main } from '../dist/cli/main.js';

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
