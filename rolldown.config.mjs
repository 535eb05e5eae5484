// bin/auggy.js runs dist/bundle/: the compiled dist/ and its dependencies joined into a few files.
// Node resolves, reads and compiles each ES module on its own; auggy with its dependencies is
// some 270 of them for `run --print` (zod and @opentelemetry/api alone are 160), and that per-module
// cost was most of the start-up. Each lazily imported part (the chat, serve, each provider) stays
// a chunk of its own, loaded only by the command that needs it.
import { defineConfig } from 'rolldown';

export default defineConfig({
  input: { main: 'dist/cli/main.js' },
  platform: 'node',
  // Optional add-ons that dependencies probe for (ink's devtools only under DEV=true) stay outside.
  // The MCP SDK stays a package of its own, imported only when an agent enables mcp.
  external: [/^pg-native$/, /^bufferutil$/, /^utf-8-validate$/, /^react-devtools-core$/, /^@modelcontextprotocol\//],
  logLevel: 'warn',
  output: {
    dir: 'dist/bundle',
    format: 'esm',
    entryFileNames: '[name].js',
    chunkFileNames: '[name]-[hash].js',
    sourcemap: false,
  },
});
