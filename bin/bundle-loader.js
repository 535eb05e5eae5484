// Loads dist/bundle/'s CommonJS chunks the way Node's require would, except that each is compiled
// with the V8 code cache `npm run build` wrote beside it (CHUNK.cjs.cache): compiling is then
// reading bytecode instead of parsing and compiling source, for the top level and for every
// function the build's own run used. A cache V8 rejects (another Node or V8 version, other V8
// flags) or one older than its chunk is ignored: the chunk is compiled from source as usual.
// Nothing here writes a file; only scripts/code-cache.mjs, at build time, asks for the caches.
'use strict';
const { readFileSync, statSync } = require('node:fs');
const { createRequire } = require('node:module');
const { dirname, join, resolve } = require('node:path');
const vm = require('node:vm');

// Node's own wrapper, and `__import` for the ES module a chunk imports (see rolldown.config.mjs).
const WRAPPER = ['(function (exports, require, module, __filename, __dirname, __import) { ', '\n});'];

function cacheFor(file) {
  try {
    const cache = `${file}.cache`;
    // A chunk edited after the build must not run another source's bytecode.
    if (statSync(cache).mtimeMs < statSync(file).mtimeMs) return undefined;
    return readFileSync(cache);
  } catch {
    return undefined;
  }
}

function createBundleLoader({ useCache = true } = {}) {
  const loaded = new Map();

  function load(path) {
    const file = resolve(path);
    const done = loaded.get(file);
    if (done) return done.module.exports;
    const script = compile(file);
    const module = { id: file, filename: file, loaded: false, exports: {} };
    loaded.set(file, { module, script });
    const nodeRequire = createRequire(file);
    const require = (id) => {
      if (!id.startsWith('.')) return nodeRequire(id);
      return load(join(dirname(file), id));
    };
    require.resolve = nodeRequire.resolve;
    require.cache = nodeRequire.cache;
    // A package's ES module, imported from bin/: its specifiers are bare, so where from is moot.
    const importEsModule = (specifier) => import(specifier);
    script.runInThisContext().call(module.exports, module.exports, require, module, file, dirname(file), importEsModule);
    module.loaded = true;
    return module.exports;
  }

  function compile(file) {
    const source = readFileSync(file, 'utf8');
    return new vm.Script(WRAPPER[0] + source + WRAPPER[1], {
      filename: file,
      cachedData: useCache ? cacheFor(file) : undefined,
    });
  }

  /** The compiled script of a chunk, loaded or not: what scripts/code-cache.mjs takes the cache of. */
  function scriptOf(file) {
    return loaded.get(file)?.script ?? compile(file);
  }

  return { load, scriptOf };
}

module.exports = { createBundleLoader };
