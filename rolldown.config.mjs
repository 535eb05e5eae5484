// bin/auggy.js runs dist/bundle/: the compiled dist/ and its dependencies joined into a few files.
// Node resolves, reads and compiles each ES module on its own; auggy with its dependencies is
// some 270 of them for `run --print` (zod and @opentelemetry/api alone are 160), and that per-module
// cost was most of the start-up. Each lazily imported part (the chat, serve, each provider) stays
// a chunk of its own, loaded only by the command that needs it.
//
// The chunks are CommonJS so that bin/bundle-loader.js can compile them with a V8 code cache
// (vm.Script's cachedData): Node 20 takes no code cache for an ES module. Ink and its layout
// engine (yoga) wait at their top level, which CommonJS cannot express, so a plugin takes those
// awaits out (scripts/ink-without-top-level-await.mjs) and Ink is a chunk like the others, React
// with it: one React in the bundle for Ink and the chat alike. React picks its development or
// production build from NODE_ENV when first required, so that stays a choice made at run time
// (src/hosts/tui/start-tui.ts).
//
// Code compiled from a V8 code cache cannot run `import()` in Node 20 (the callback vm.Script was
// given is lost with the cache), so the one ES module auggy imports, the MCP SDK, is imported
// through `__import`, which bin/bundle-loader.js hands each chunk; every other lazy import is a
// `require` of a chunk (or of React).
import { defineConfig } from 'rolldown';
import { inkWithoutTopLevelAwait } from './scripts/ink-without-top-level-await.mjs';
import { lazyEmojiRegex } from './scripts/lazy-emoji-regex.mjs';

const ES_MODULE_IMPORT = /\bimport\((['"])(@modelcontextprotocol\/[^'"]+)\1\)/g;

/** `import('@modelcontextprotocol/…')` in auggy's own modules becomes `__import('@modelcontextprotocol/…')`. */
const importEsModulesThroughLoader = {
  name: 'import-es-modules-through-loader',
  transform(code, id) {
    if (!id.includes('/dist/') || id.includes('/node_modules/') || !ES_MODULE_IMPORT.test(code)) return null;
    return code.replace(ES_MODULE_IMPORT, (_, quote, specifier) => `__import(${quote}${specifier}${quote})`);
  },
};

// Optional add-ons that dependencies probe for stay outside.
const optionalAddOns = [/^pg-native$/, /^bufferutil$/, /^utf-8-validate$/];

export default defineConfig([
  {
    input: { main: 'dist/cli/main.js' },
    platform: 'node',
    // The MCP SDK stays a package of its own, imported only when an agent enables mcp.
    external: [...optionalAddOns, /^@modelcontextprotocol\//],
    plugins: [importEsModulesThroughLoader, inkWithoutTopLevelAwait(), lazyEmojiRegex()],
    logLevel: 'warn',
    output: {
      dir: 'dist/bundle',
      format: 'cjs',
      // Only ASCII, so V8 holds each chunk's source as a one-byte string: read ~2× as fast as
      // the two-byte string one non-ASCII character anywhere makes (22 → 11 ms for the chat's
      // chunks). Doc comments go (what is left of them was most of the non-ASCII text); licences stay.
      charset: 'ascii',
      comments: { legal: true, annotation: false, jsdoc: false },
      dynamicImportInCjs: false,
      entryFileNames: '[name].cjs',
      chunkFileNames: '[name]-[hash].cjs',
      sourcemap: false,
    },
  },
]);
