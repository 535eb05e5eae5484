// bin/auggy.js runs dist/bundle/: auggy's sources and their dependencies joined into a few ES
// module files. Node resolves, reads and compiles each module on its own; auggy with its
// dependencies is some 270 of them for `run --print` (zod and @opentelemetry/api alone are 160),
// and that per-module cost was most of the start-up. Each lazily imported part (the chat, serve,
// each provider) stays a chunk of its own, loaded only by the command that needs it.
//
// The bundle is made from src/ itself, not from tsc's dist/, so that its source maps name the
// src/... files (rolldown does not follow a JavaScript file's own source map back to its source).
// tsc still checks the types and writes dist/, which the tests and benches import module by module.
import { defineConfig } from 'rolldown';

// Optional add-ons that dependencies probe for stay outside (react-devtools-core: Ink, under DEV=true).
const optionalAddOns = [/^pg-native$/, /^bufferutil$/, /^utf-8-validate$/, /^react-devtools-core$/];

export default defineConfig([
  {
    input: { main: 'src/cli/main.ts' },
    platform: 'node',
    tsconfig: 'tsconfig.build.json',
    // The MCP SDK stays a package of its own, imported only when an agent enables mcp.
    external: [...optionalAddOns, /^@modelcontextprotocol\//],
    logLevel: 'warn',
    output: {
      dir: 'dist/bundle',
      format: 'esm',
      // Only ASCII, so V8 holds each chunk's source as a one-byte string: read ~2× as fast as
      // the two-byte string one non-ASCII character anywhere makes (22 → 11 ms for the chat's
      // chunks). Doc comments go (what is left of them was most of the non-ASCII text); licences stay.
      charset: 'ascii',
      comments: { legal: true, annotation: false, jsdoc: false },
      entryFileNames: '[name].js',
      chunkFileNames: '[name]-[hash].js',
      // Read only when an unexpected error is printed (bin/auggy.js), so a crash names src/ files.
      sourcemap: true,
      // src/ is not in the package: the maps need to name a file and line, not carry its text.
      sourcemapExcludeSources: true,
    },
  },
]);
