'use strict';
// Where Node's compile cache keeps auggy's compiled bundle: NODE_COMPILE_CACHE when set (Node
// itself then enabled the cache there before auggy ran), else the person's own cache folder,
// $XDG_CACHE_HOME/auggy/compile-cache or ~/.cache/auggy/compile-cache. Never the agent folder,
// which auggy runs in but does not own; and not Node's default under os.tmpdir(), which every
// user of the machine can write to, so one of them could leave bytecode for another to run.
const { homedir } = require('node:os');
const { isAbsolute, join } = require('node:path');

/** The folder, or undefined when there is no home folder to put it in (then auggy runs without). */
function compileCacheDir(env = process.env) {
  if (env.NODE_COMPILE_CACHE) return env.NODE_COMPILE_CACHE;
  // The XDG spec: a relative XDG_CACHE_HOME is invalid and ignored.
  if (env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME)) return join(env.XDG_CACHE_HOME, 'auggy', 'compile-cache');
  try {
    return join(homedir(), '.cache', 'auggy', 'compile-cache');
  } catch {
    return undefined;
  }
}

module.exports = { compileCacheDir };
