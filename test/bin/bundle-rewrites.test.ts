import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/agent-fixture.js';

type Transform = (code: string, id: string) => string | null;
// The build's own plugins (plain JavaScript, run by rolldown.config.mjs), imported by path.
const scripts = pathToFileURL(join(REPO_ROOT, 'scripts')).href;
const { inkWithoutTopLevelAwait } = (await import(`${scripts}/ink-without-top-level-await.mjs`)) as { inkWithoutTopLevelAwait(): { transform: { handler: Transform } } };
const { lazyEmojiRegex } = (await import(`${scripts}/lazy-emoji-regex.mjs`)) as { lazyEmojiRegex(): { transform: Transform } };
const modules = join(REPO_ROOT, 'node_modules');
const inkTransform = inkWithoutTopLevelAwait().transform.handler;
const emojiTransform = lazyEmojiRegex().transform;
const rewrite = (transform: Transform, file: string) => transform(readFileSync(join(modules, file), 'utf8'), join(modules, file));

describe('the bundle rewrites of Ink, yoga and string-width', () => {
  it('take every top-level await out of Ink and yoga', () => {
    const index = rewrite(inkTransform, 'yoga-layout/dist/src/index.js');
    expect(index).not.toContain('await');
    expect(index).toContain('loadYoga(yogaModule);');
    // The wasm moves from the glue's data: URL into the index, read without fetch.
    expect(rewrite(inkTransform, 'yoga-layout/dist/binaries/yoga-wasm-base64-esm.js')).toContain('H=""');
    expect(index).toMatch(/new WebAssembly\.Module\(Buffer\.from\("AGFzbQ/);
    const reconciler = rewrite(inkTransform, 'ink/build/reconciler.js') ?? '';
    expect(reconciler).not.toContain("await import('./devtools.js')");
    expect(reconciler).not.toContain('await loadPackageJson()');
  });

  it('stop the build, naming the file, when a text they rewrite has changed', () => {
    const id = join(modules, 'yoga-layout/dist/src/index.js');
    expect(() => inkTransform('const Yoga = wrapAssembly(await loadYoga({}));', id)).toThrow(
      `ink-without-top-level-await: expected one const Yoga = wrapAssembly(await loadYoga()); in ${id}, found 0`,
    );
    const width = join(modules, 'string-width/index.js');
    expect(() => emojiTransform('const emoji = /^\\p{RGI_Emoji}$/v;', width)).toThrow('lazy-emoji-regex: expected one');
  });

  it('leave an older string-width, which has no RGI emoji expression, alone', () => {
    expect(rewrite(emojiTransform, 'wrap-ansi/node_modules/string-width/index.js')).toBeNull();
  });

  it('measure every width as string-width itself does', async () => {
    const rewritten = rewrite(emojiTransform, 'string-width/index.js') ?? '';
    const resolve = createRequire(join(modules, 'string-width', 'index.js')).resolve;
    const standalone = rewritten.replace(/from '([^'.][^']*)'/g, (_, name: string) => `from '${pathToFileURL(resolve(name)).href}'`);
    const file = join(mkdtempSync(join(tmpdir(), 'auggy-string-width-')), 'lazy.mjs');
    writeFileSync(file, standalone);
    const lazy = ((await import(pathToFileURL(file).href)) as { default: (text: string) => number }).default;
    const original = ((await import('string-width')) as { default: (text: string) => number }).default;
    const samples = ['›', '· hello', '👍🏽', '👨‍👩‍👧', '🇫🇷', '🏴󠁧󠁢󠁳󠁣󠁴󠁿', '#️⃣', '❤️', '☺', '☺️', '한국어', 'ｱ', 'e\u0301', '🫠', 'a👍b'];
    // Latin to CJK symbols, and the emoji blocks: every kind of cluster the two tests tell apart.
    const points = [...Array(0x3400).keys(), ...Array.from({ length: 0xb00 }, (_, index) => 0x1f000 + index)];
    for (const point of points) {
      const character = String.fromCodePoint(point);
      samples.push(character, `${character}\ufe0f`, `${character}\u{1f3fb}`);
    }
    const different = samples.filter((text) => lazy(text) !== original(text));
    expect(different).toEqual([]);
  });
});
