import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';

export const REPO_ROOT = resolve(import.meta.dirname, '..', '..');
export const AUGGY_BIN = join(REPO_ROOT, 'bin', 'auggy.js');

/**
 * A copy of a bundled example in a temp folder, so runs never write sessions into the repo. Its
 * `.auggy/` (sessions someone's own runs left in the clone) is not copied: a test starts clean.
 */
export function copyExample(name = 'demo', examplesDir = join(REPO_ROOT, 'examples')): string {
  const source = join(examplesDir, name);
  const target = join(mkdtempSync(join(tmpdir(), 'auggy-example-')), name);
  cpSync(source, target, { recursive: true, filter: (path) => relative(source, path).split(sep)[0] !== '.auggy' });
  return target;
}

export interface FixtureOptions {
  augments?: string[];
  /** Extra files to write, by path relative to the agent folder. */
  files?: Record<string, string>;
  maxInferenceLoops?: number;
  engine?: string;
}

/** A minimal agent folder (openai-compatible engine by default) in a temp dir. */
export function makeAgentFolder(options: FixtureOptions = {}): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'auggy-agent-')), 'agent');
  const augments = options.augments ?? ['turnControl'];
  const engine = options.engine ?? 'engine:\n  provider: openai-compatible\n  model: test\n  baseURL: http://127.0.0.1:9/v1\n';
  const files: Record<string, string> = {
    'agent.yaml': [
      '# Agent configuration',
      'name: fixture',
      'displayName: Fixture',
      'purpose: Exercise auggy in tests.',
      'identity: ./identity.md',
      engine.trimEnd(),
      'settings:',
      `  maxInferenceLoops: ${options.maxInferenceLoops ?? 10}`,
      'augments:',
      ...augments.map((a) => `  - ${a}`),
      '',
    ].join('\n'),
    'identity.md': '# Fixture\n\nYou are a test agent.\n',
    ...Object.fromEntries(augments.map((a) => [`augments/${a}/augment.yaml`, `type: ${a}\n`])),
    ...options.files,
  };
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}
