import { describe, expect, it } from 'vitest';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BUILTIN_AUGMENT_CATALOG, BUILTIN_AUGMENT_NAMES, loadBuiltinAugments } from '../../src/augments/catalog.js';
import { BUILTIN_AUGMENTS } from '../../src/augments/registry.js';
import { loadAgent } from '../../src/agent/load-agent.js';

const root = resolve(import.meta.dirname, '../..');
/** Agent folders of every shape the repository keeps: the examples, real auggy folders, PromptKit packs. */
const FOLDERS = [
  'examples/demo',
  'examples/support',
  'test/fixtures/auggy/modularity',
  'test/fixtures/auggy/concierge',
  'test/fixtures/auggy/security',
  'test/fixtures/promptkit/guarded',
  'test/fixtures/promptkit/hitl',
  'test/fixtures/promptkit/spin',
];

/** The demo with a typo of a type, a type no auggy has and a skill of an augment it does not list. */
function demoWithFindings(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'auggy-catalog-')), 'demo');
  cpSync(join(root, 'examples/demo'), dir, { recursive: true });
  const yaml = join(dir, 'agent.yaml');
  writeFileSync(yaml, `${readFileSync(yaml, 'utf8')}  - userAks\n  - { type: somethingElse }\n`);
  mkdirSync(join(dir, 'skills', 'workflow'), { recursive: true });
  writeFileSync(join(dir, 'skills', 'workflow', 'SKILL.md'), '---\nname: workflow\ndescription: Follow the workflow.\n---\nCall workflow_transition.\n');
  return dir;
}

describe('the catalog of built-in augments that run, serve and test load from', () => {
  it('names every built-in type with its skill, in the registry order', () => {
    expect(BUILTIN_AUGMENT_NAMES).toEqual(BUILTIN_AUGMENTS.map((factory) => ({ type: factory.type, skill: factory.skill })));
  });

  it('loads the very factories the registry lists, and only those asked for', async () => {
    expect(await loadBuiltinAugments(BUILTIN_AUGMENTS.map((factory) => factory.type))).toEqual([...BUILTIN_AUGMENTS]);
    expect((await loadBuiltinAugments(['board', 'noSuchType'])).map((factory) => factory.type)).toEqual(['board']);
  });

  it('loads every folder exactly as the whole list does: the same agent and the same findings', async () => {
    for (const dir of [...FOLDERS.map((folder) => join(root, folder)), demoWithFindings()]) {
      const fromCatalog = await loadAgent(dir, BUILTIN_AUGMENT_CATALOG);
      expect(fromCatalog, dir).toEqual(await loadAgent(dir, BUILTIN_AUGMENTS));
    }
    const findings = (await loadAgent(demoWithFindings(), BUILTIN_AUGMENT_CATALOG)).diagnostics.map((d) => d.message).join('\n');
    expect(findings).toMatch(/userAks is not supported here, ignored \(did you mean userAsk\?\)/);
    expect(findings).toMatch(/somethingElse is not supported here/);
    expect(findings).toMatch(/guidance for the workflow augment, which agent.yaml does not list/);
  });
});
