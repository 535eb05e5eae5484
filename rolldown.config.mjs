// bin/auggy.js runs dist/bundle/: the compiled dist/ and its dependencies joined into a few files.
// Node resolves, reads and compiles each ES module on its own; auggy with its dependencies is
// some 270 of them for `run --print` (zod and @opentelemetry/api alone are 160), and that per-module
// cost was most of the start-up. Each lazily imported part (the chat, serve, each provider) stays
// a chunk of its own, loaded only by the command that needs it.
//
// The chunks are CommonJS so that bin/bundle-loader.js can compile them with a V8 code cache
// (vm.Script's cachedData): Node 20 takes no code cache for an ES module. Ink cannot be among them:
// it and its layout engine (yoga) wait at the top level (`await loadYoga()`), which CommonJS cannot
// express. So Ink is bundled on its own as an ES module (dist/bundle/ink.mjs) that the chat imports
// before any chunk that uses it is loaded. React stays the package in node_modules for both, so
// Ink and the chat share one React.
//
// Code compiled from a V8 code cache cannot run `import()` in Node 20 (the callback vm.Script was
// given is lost with the cache), so the two ES modules auggy imports, Ink and the MCP SDK, are
// imported through `__import`, which bin/bundle-loader.js hands each chunk; every other lazy
// import is a `require` of a chunk (or of React, which is CommonJS).
import { defineConfig } from 'rolldown';

const ES_MODULES = { ink: './ink.mjs' };
const ES_MODULE_IMPORT = /\bimport\((['"])(ink|@modelcontextprotocol\/[^'"]+)\1\)/g;

/** `import('ink')` in auggy's own modules becomes `__import('./ink.mjs')`. */
const importEsModulesThroughLoader = {
  name: 'import-es-modules-through-loader',
  transform(code, id) {
    if (!id.includes('/dist/') || id.includes('/node_modules/') || !ES_MODULE_IMPORT.test(code)) return null;
    return code.replace(ES_MODULE_IMPORT, (_, quote, specifier) => `__import(${quote}${ES_MODULES[specifier] ?? specifier}${quote})`);
  },
};

// Optional add-ons that dependencies probe for (ink's devtools only under DEV=true) stay outside.
const optionalAddOns = [/^pg-native$/, /^bufferutil$/, /^utf-8-validate$/, /^react-devtools-core$/];
const react = /^react(\/|$)/;

export default defineConfig([
  {
    input: { ink: 'ink' },
    platform: 'node',
    external: [...optionalAddOns, react],
    logLevel: 'warn',
    output: {
      dir: 'dist/bundle',
      format: 'esm',
      entryFileNames: '[name].mjs',
      chunkFileNames: 'ink-[name]-[hash].mjs',
      sourcemap: false,
    },
  },
  {
    input: { main: 'dist/cli/main.js' },
    platform: 'node',
    // The MCP SDK stays a package of its own, imported only when an agent enables mcp.
    external: [...optionalAddOns, react, /^ink$/, /^@modelcontextprotocol\//],
    plugins: [importEsModulesThroughLoader],
    logLevel: 'warn',
    output: {
      dir: 'dist/bundle',
      format: 'cjs',
      dynamicImportInCjs: false,
      paths: { ink: './ink.mjs' },
      entryFileNames: '[name].cjs',
      chunkFileNames: '[name]-[hash].cjs',
      sourcemap: false,
    },
  },
]);
