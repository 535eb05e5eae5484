import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { loadAgent } from '../../../src/agent/load-agent.js';
import { findAugmentFactory, BUILTIN_AUGMENTS } from '../../../src/augments/registry.js';
import { userAskAugment } from '../../../src/augments/user-ask/augment.js';
import { createCommand } from '../../../src/cli/create/create-action.js';
import { TEMPLATES_DIR } from '../../../src/cli/create/render.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { loadFolder, userAskFolder } from './harness.js';

const FILE = 'augments/userAsk/augment.yaml';

describe('userAsk config', () => {
  it('is registered as a built-in augment with its skill', () => {
    expect(findAugmentFactory('userAsk')).toBe(userAskAugment);
    expect(userAskAugment.skill).toBe('userAsk');
  });

  it('accepts no config, an evaluator model and a length cap', () => {
    expect(userAskAugment.validateConfig({}, FILE, '.')).toEqual([]);
    expect(userAskAugment.validateConfig({ evaluatorModel: 'ollama:llama3.2:1b', maxAskChars: 1000 }, FILE, '.')).toEqual([]);
  });

  it('names the file, the field and the fix for a bad value', () => {
    expect(userAskAugment.validateConfig({ evaluatorModel: 'gpt-5' }, FILE, '.')).toEqual([
      {
        severity: 'error',
        file: FILE,
        field: 'config.evaluatorModel',
        message: expect.stringMatching(/evaluatorModel "gpt-5" must be provider:model, with provider one of anthropic, openai/),
      },
    ]);
    expect(userAskAugment.validateConfig({ maxAskChars: 5 }, FILE, '.')).toEqual([
      { severity: 'error', file: FILE, field: 'config.maxAskChars', message: 'must be at least 20' },
    ]);
    expect(userAskAugment.validateConfig({ maxAskChars: 'lots' }, FILE, '.')[0]).toMatchObject({ field: 'config.maxAskChars' });
  });

  it('a bad config stops the folder from loading, pointing at the line in augment.yaml', async () => {
    const dir = userAskFolder('  maxAskChars: 2.5\n');
    const loaded = await loadAgent(dir, BUILTIN_AUGMENTS, { processEnv: {} });
    const error = loaded.diagnostics.find((d) => d.severity === 'error');
    expect(error).toMatchObject({ file: FILE, field: 'config.maxAskChars', line: 3, message: 'must be a whole number of characters' });
  });
});

describe('userAsk in auggy admin', () => {
  it('lists the tools, that it is on, and the evaluator model (the agent’s own by default)', async () => {
    const agent = await loadFolder(userAskFolder());
    const section = userAskAugment.describe(agent, {});
    expect(section.tools).toEqual(['set_user_ask', 'clear_user_ask']);
    expect(section.rows).toEqual(
      expect.arrayContaining([
        { label: 'Status', value: 'on (opt-in: listed in agent.yaml augments)' },
        { label: 'Evaluator model', value: "openai-compatible:test (the agent's own model)" },
        { label: 'Max ask chars', value: '4000 (default)' },
      ]),
    );
    const custom = userAskAugment.describe(agent, { evaluatorModel: 'openai:gpt-5.4-mini', maxAskChars: 500 });
    expect(custom.rows).toEqual(
      expect.arrayContaining([
        { label: 'Evaluator model', value: 'openai:gpt-5.4-mini' },
        { label: 'Max ask chars', value: '500' },
      ]),
    );
  });
});

describe('the userAsk skill', () => {
  it('has front matter with a name and a description, then guidance', () => {
    const text = readFileSync(join(TEMPLATES_DIR, 'skills', 'userAsk', 'SKILL.md'), 'utf8');
    const match = /^---\n([\s\S]*?)\n---\n([\s\S]+)$/.exec(text);
    expect(match).not.toBeNull();
    const front = parse(match![1]) as { name?: string; description?: string };
    expect(front.name).toBe('userAsk');
    expect(front.description?.trim().length).toBeGreaterThan(20);
    expect(match![2]).toContain('set_user_ask');
    expect(match![2]).toContain('clear_user_ask');
  });

  it('the bundled demo carries the same skill', () => {
    const demo = join(TEMPLATES_DIR, '..', 'examples', 'demo', 'skills', 'userAsk', 'SKILL.md');
    expect(readFileSync(demo, 'utf8')).toBe(readFileSync(join(TEMPLATES_DIR, 'skills', 'userAsk', 'SKILL.md'), 'utf8'));
  });

  it('auggy create --augment userAsk writes the augment and its skill, and the folder loads clean', async () => {
    const parent = tempDir('auggy-create-');
    let err = '';
    const code = await createCommand(
      'asker',
      { yes: true, provider: 'openai', model: 'gpt-5.4-mini', augment: ['userAsk'] },
      { out: () => {}, err: (t) => (err += t), cwd: parent },
    );
    expect(err).toBe('');
    expect(code).toBe(0);
    const dir = join(parent, 'asker');
    expect(readFileSync(join(dir, 'augments/userAsk/augment.yaml'), 'utf8')).toBe('type: userAsk\n');
    expect(readFileSync(join(dir, 'skills/userAsk/SKILL.md'), 'utf8')).toBe(readFileSync(join(TEMPLATES_DIR, 'skills/userAsk/SKILL.md'), 'utf8'));
    const loaded = await loadAgent(dir, BUILTIN_AUGMENTS, { processEnv: { OPENAI_API_KEY: 'x' } });
    expect(loaded.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(loaded.agent?.augments.map((a) => a.type)).toEqual(['turnControl', 'userAsk']);
    expect(loaded.agent?.skills.map((s) => s.name)).toEqual(['turnControl', 'userAsk']);
  });
});
