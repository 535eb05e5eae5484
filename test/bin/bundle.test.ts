import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/agent-fixture.js';

const bundle = join(REPO_ROOT, 'dist', 'bundle');
const chunks = readdirSync(bundle).filter((name) => name.endsWith('.js'));

describe('the bundle bin/auggy.js runs', () => {
  it("is made by rolldown with no plugin, so no dependency's text is rewritten", async () => {
    const configs = ((await import(pathToFileURL(join(REPO_ROOT, 'rolldown.config.mjs')).href)) as { default: Array<{ plugins?: unknown }> }).default;
    expect(configs.length).toBeGreaterThan(0);
    for (const config of configs) expect(config.plugins ?? []).toEqual([]);
  });

  it('is ES modules Node loads itself, with no code cache or loader of its own beside them', () => {
    expect(chunks).toContain('main.js');
    expect(readdirSync(bundle).filter((name) => !name.endsWith('.js') && !name.endsWith('.js.map'))).toEqual([]);
    expect(readdirSync(join(REPO_ROOT, 'bin')).sort()).toEqual(['auggy.js', 'compile-cache-dir.js', 'package.json', 'unexpected-error.js']);
  });

  it("has its source maps beside the chunks, naming the src/ files of auggy's own code", () => {
    const sources = new Set<string>();
    // A chunk that only re-exports another's names (or is rolldown's runtime) has no map.
    const mapped = chunks.filter((chunk) => readFileSync(join(bundle, chunk), 'utf8').endsWith(`//# sourceMappingURL=${chunk}.map`));
    expect(mapped).toContain('main.js');
    for (const chunk of mapped) {
      const map = JSON.parse(readFileSync(join(bundle, `${chunk}.map`), 'utf8')) as { sources: string[] };
      for (const source of map.sources) sources.add(resolve(bundle, source).slice(REPO_ROOT.length + 1));
    }
    expect(sources).toContain('src/cli/main.ts');
    expect(sources).toContain('src/kernel/turn-loop.ts');
    expect([...sources].filter((source) => !source.startsWith('src/') && !source.startsWith('node_modules/'))).toEqual([]);
  });
});
