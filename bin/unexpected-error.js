'use strict';
// The one line bin/auggy.js prints for an error nothing else caught: its message, and where in
// src/ it was thrown, so a report of it can be acted on. The bundle's source maps are read only
// here: having Node apply them to every module as it loads costs every start (10-50 ms).
const { readFileSync } = require('node:fs');
const { SourceMap } = require('node:module');
const { dirname, join, relative, resolve, sep } = require('node:path');
const { fileURLToPath } = require('node:url');

const root = resolve(__dirname, '..');
const bundle = join(root, 'dist', 'bundle');
/** A stack frame's file, line and column, as V8 writes them: `at f (file:///…/x.js:3:14)` or `at /…/x.js:3:14`. */
const FRAME = /\(?((?:file:\/\/)?\/[^\s()]+?):(\d+):(\d+)\)?$/;

/** Where in src/ a frame of the bundle comes from, as `src/dir/file.ts:line:column`; undefined when it is not ours. */
function sourceOf(file, line, column) {
  if (dirname(file) !== bundle) return undefined;
  let entry;
  try {
    const map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')));
    entry = map.findEntry(line - 1, column - 1);
  } catch {
    return undefined;
  }
  if (entry === undefined || entry.originalSource === undefined) return undefined;
  const source = relative(root, resolve(bundle, entry.originalSource));
  if (!source.startsWith(`src${sep}`)) return undefined;
  return `${source.split(sep).join('/')}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
}

/** The first frame of `error`'s stack that is auggy's own code, named by its src/ file. */
function thrownAt(error) {
  const stack = typeof error.stack === 'string' ? error.stack : '';
  for (const line of stack.split('\n').slice(1)) {
    const frame = FRAME.exec(line.trim());
    if (frame === null) continue;
    const file = frame[1].startsWith('file:') ? fileURLToPath(frame[1]) : frame[1];
    const where = sourceOf(file, Number(frame[2]), Number(frame[3]));
    if (where !== undefined) return where;
  }
  return undefined;
}

function describeUnexpectedError(error) {
  if (!(error instanceof Error)) return String(error);
  const where = thrownAt(error);
  return where === undefined ? error.message : `${error.message} (at ${where}: a bug in auggy; please report it with this line)`;
}

module.exports = { describeUnexpectedError };
