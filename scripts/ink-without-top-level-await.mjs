// A rolldown plugin that takes the top-level `await`s out of Ink and its layout engine (yoga), so
// that Ink can be bundled into CommonJS chunks like the rest of auggy and get a V8 code cache
// (see rolldown.config.mjs and bin/bundle-loader.js). Without it Ink had to stay an ES module of
// its own, compiled from source at every chat start.
//
// The rewrites are exact text replacements in the two packages' files (scripts/bundle-rewrite.mjs):
// ink is pinned (~6.8) and yoga-layout comes with it. If an update changes a text, the build stops
// and says which one, rather than bundle a file that would await at the top level.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { replaceOnce as replaceOnceIn } from './bundle-rewrite.mjs';

const replaceOnce = (...args) => replaceOnceIn('ink-without-top-level-await', ...args);

/** yoga-layout/dist/binaries/yoga-wasm-base64-esm.js: emscripten's glue, with the wasm inline. */
const YOGA_GLUE = /\/yoga-layout\/dist\/binaries\/yoga-wasm-base64-esm\.js$/;
/** yoga-layout/dist/src/index.js: `const Yoga = wrapAssembly(await loadYoga());` */
const YOGA_INDEX = /\/yoga-layout\/dist\/src\/index\.js$/;
/** ink/build/reconciler.js: two awaits, both only when DEV=true (React devtools). */
const INK_RECONCILER = /\/ink\/build\/reconciler\.js$/;

const WASM_DATA_URL = /H="data:application\/octet-stream;base64,([A-Za-z0-9+/=]+)"/;

/** The wasm yoga's glue carries inline, as base64, read from the glue beside yoga's index. */
function yogaWasmBase64(indexId) {
  const glue = join(dirname(indexId), '..', 'binaries', 'yoga-wasm-base64-esm.js');
  const base64 = WASM_DATA_URL.exec(readFileSync(glue, 'utf8'))?.[1];
  if (base64 === undefined) throw new Error(`ink-without-top-level-await: no inline wasm in ${glue}; yoga-layout changed`);
  return base64;
}

export function inkWithoutTopLevelAwait() {
  const seen = new Set();
  return {
    name: 'ink-without-top-level-await',
    transform: {
      handler(code, id) {
        if (YOGA_GLUE.test(id)) {
          seen.add('glue');
          // The inline wasm moves to yoga's index (below); the glue's own loader, which reads it
          // through `fetch` of a data: URL, is never called once `instantiateWasm` is given.
          return replaceOnce(code, id, WASM_DATA_URL, 'H=""');
        }
        if (YOGA_INDEX.test(id)) {
          seen.add('index');
          // Emscripten's glue lets the page instantiate the wasm (`Module.instantiateWasm`). Done
          // synchronously, the glue's run dependencies are met before it returns, and its last
          // statement runs the module's start: `loadYoga(yogaModule)` returns with `yogaModule`
          // ready, so nothing needs awaiting. `calledRun` is the glue's own word that it ran.
          return replaceOnce(
            code,
            id,
            'const Yoga = wrapAssembly(await loadYoga());',
            [
              `const yogaWasm = new WebAssembly.Module(Buffer.from(${JSON.stringify(yogaWasmBase64(id))}, 'base64'));`,
              'const yogaModule = {',
              '  instantiateWasm(imports, receiveInstance) {',
              '    receiveInstance(new WebAssembly.Instance(yogaWasm, imports));',
              '    return {};',
              '  },',
              '};',
              'loadYoga(yogaModule);',
              "if (!yogaModule.calledRun) throw new Error('yoga did not start synchronously');",
              'const Yoga = wrapAssembly(yogaModule);',
            ].join('\n'),
          );
        }
        if (INK_RECONCILER.test(id)) {
          seen.add('reconciler');
          // auggy does not support React devtools (DEV=true): the devtools import and the read of
          // Ink's package.json for them go, and with them the reconciler's top-level awaits.
          let rewritten = replaceOnce(code, id, /\nif \(isDev\(\)\) \{\n {4}try \{\n {8}await import\('\.\/devtools\.js'\);[\s\S]*?\n\}\n/, '\n');
          rewritten = replaceOnce(
            rewritten,
            id,
            /const packageJson = isDev\(\)\n\s*\? await loadPackageJson\(\)\n\s*: (\{ name: undefined, version: undefined \});/,
            'const packageJson = $1;',
          );
          return rewritten;
        }
        return null;
      },
    },
    buildEnd(error) {
      if (error) return;
      for (const part of ['glue', 'index', 'reconciler']) {
        if (!seen.has(part)) throw new Error(`ink-without-top-level-await: yoga's or Ink's ${part} file was not bundled; its path changed`);
      }
    },
  };
}
