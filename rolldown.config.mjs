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

// What every command that runs an agent loads (the CLI, reading the folder, the kernel, the
// session, the scripted model, the print host and the four augments the templates and examples
// use) is one chunk, with the parts of yaml, zod and commander it imports: Node resolves, reads and
// links each ES module on its own, 0.3-0.5 ms a module on this machine, and rolldown's own split
// made `run --print` load 57 of them. Everything else (the chat, serve, the test host, MCP,
// workflow, the providers, postgres) stays in chunks of its own, loaded by the command that needs
// it. strictExecutionOrder keeps each module's top level running only when it is first imported,
// as before, so a module in the chunk that a command does not import builds none of its schemas.
// Its Node built-ins are another matter: rolldown hoists every `import ... from 'node:...'` to the
// chunk's top, and Node builds each one's whole namespace (node:util's or node:readline's loads
// a dozen internal modules on Node 24), so a module only one other command needs stays out.
const RUN_GROUP = [
  /[\\/]src[\\/](agent|kernel|model)[\\/]/,
  // merge-state.ts is the PostgreSQL store's alone (it would bring node:util's whole namespace).
  /[\\/]src[\\/]session[\\/][^\\/]+(?<!merge-state\.ts)$/,
  /[\\/]src[\\/]augments[\\/](catalog\.ts|config-diagnostics\.ts|turn-control[\\/].*|user-ask[\\/].*|questions[\\/].*|board[\\/].*)$/,
  /[\\/]src[\\/]hosts[\\/]([^\\/]+\.ts|print[\\/].*)$/,
  // main.ts stays the entry chunk's own, so that main.js has its source map like any chunk.
  // prompts.ts is create's alone: in this chunk it would load node:readline for every command.
  /[\\/]src[\\/]cli[\\/]([^\\/]+(?<!-action|main|prompts)\.ts|run-action\.ts)$/,
];

/**
 * The Console (web/console/): a page for the browser, served by `auggy serve` from dist/console/.
 * Everything it runs is this one file, read from disk: no CDN, nothing fetched at run time.
 */
const consolePage = {
  input: { console: 'web/console/main.tsx' },
  platform: 'browser',
  tsconfig: 'web/console/tsconfig.json',
  logLevel: 'warn',
  transform: { define: { 'process.env.NODE_ENV': JSON.stringify('production') } },
  output: { dir: 'dist/console', format: 'esm', entryFileNames: '[name].js', minify: true, sourcemap: true, codeSplitting: false },
};

export default defineConfig([
  consolePage,
  {
    input: { main: 'src/cli/main.ts' },
    platform: 'node',
    tsconfig: 'tsconfig.build.json',
    // The MCP SDK stays a package of its own, imported only when an agent enables mcp.
    external: [...optionalAddOns, /^@modelcontextprotocol\//],
    logLevel: 'warn',
    // With chunk groups rolldown notes every module that is imported lazily in one place and
    // statically in another (registry.ts imports each augment that catalog.ts imports lazily):
    // that is by design here, the chunk it lands in is the group's or its own either way.
    onLog(level, log, handler) {
      if (log.code !== 'INEFFECTIVE_DYNAMIC_IMPORT') handler(level, log);
    },
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
      codeSplitting: {
        groups: [{ name: 'run', test: (id) => RUN_GROUP.some((pattern) => pattern.test(id)) }],
      },
      strictExecutionOrder: true,
      // Read only when an unexpected error is printed (bin/auggy.js), so a crash names src/ files.
      sourcemap: true,
      // src/ is not in the package: the maps need to name a file and line, not carry its text.
      sourcemapExcludeSources: true,
    },
  },
]);
