import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { validateCommand, summaryLine } from '../../src/cli/validate-action.js';
import { UsageError } from '../../src/hosts/exit-codes.js';
import type { Diagnostic } from '../../src/agent/types.js';
import { REPO_ROOT } from '../helpers/agent-fixture.js';
import { tempDir, writeFiles } from '../helpers/temp-dir.js';

const AGENT_YAML = `name: checker
engine:
  provider: ollama
  model: llama3.2
augments:
  - turnControl
  - webFetch
`;

function folder(files: Record<string, string>): string {
  const dir = join(tempDir('auggy-validate-'), 'agent');
  writeFiles(dir, { 'agent.yaml': AGENT_YAML, 'identity.md': 'x\n', 'augments/turnControl/augment.yaml': 'type: turnControl\n', ...files });
  return dir;
}

async function validate(dir: string, json = false): Promise<{ code: number; out: string }> {
  let out = '';
  const code = await validateCommand(dir, { json }, (text) => (out += text));
  return { code, out };
}

describe('auggy validate', () => {
  it('prints "no problems found" and exits 0 for the bundled demo', async () => {
    const { code, out } = await validate(join(REPO_ROOT, 'examples', 'demo'));
    expect(code).toBe(0);
    expect(out).toMatch(/demo: no problems found\n$/);
  });

  it('prints each warning as file:line:col and still exits 0 when there are only warnings', async () => {
    const { code, out } = await validate(folder({}));
    expect(code).toBe(0);
    expect(out.split('\n')).toEqual([
      expect.stringMatching(/^agent\.yaml:7:5 warning augments\[1\]: webFetch is not supported here, ignored; /),
      expect.stringMatching(/agent: 0 errors, 1 warning$/),
      '',
    ]);
  });

  it('prints every error with its line and exits 1', async () => {
    const dir = folder({ 'agent.yaml': AGENT_YAML.replace('provider: ollama', 'provider: olama').replace('model: llama3.2', 'model: ""') });
    const { code, out } = await validate(dir);
    expect(code).toBe(1);
    expect(out).toContain(
      'agent.yaml:3:3 error engine.provider: "olama" is not one of anthropic, openai, openrouter, ollama, openai-compatible, scripted; did you mean ollama?\n',
    );
    expect(out).toContain('agent.yaml:4:3 error engine.model: must not be empty\n');
    expect(out).toMatch(/agent: 2 errors, 1 warning\n$/);
  });

  it('names a misspelled key with the key it likely meant, and keeps unknown keys of other releases silent', async () => {
    const dir = folder({
      'agent.yaml': AGENT_YAML.replace('engine:', 'enigne:').replace('augments:', 'compactionStrategy: rolling\naugmets:'),
    });
    const { code, out } = await validate(dir);
    expect(code).toBe(1);
    expect(out).toContain('agent.yaml error engine: is required; add engine: with provider: and model: under it\n');
    expect(out).toContain('agent.yaml:2:1 warning enigne: not a key auggy reads, so it is ignored; did you mean engine:?\n');
    expect(out).toContain('agent.yaml:6:1 warning augmets: not a key auggy reads, so it is ignored; did you mean augments:?\n');
    expect(out).not.toContain('compactionStrategy');
  });

  it('names a misspelled key under engine, and says nothing of a key that is right', async () => {
    const { out } = await validate(folder({ 'agent.yaml': AGENT_YAML.replace('model: llama3.2', 'modle: llama3.2\n  maxTokens: 100') }));
    expect(out).toContain('agent.yaml:4:3 warning engine.modle: not a key auggy reads, so it is ignored; did you mean model:?\n');
    expect(out).not.toContain('maxTokens');
  });

  it('says a file nested hundreds of levels deep is too deep, not that the stack overflowed', async () => {
    const dir = folder({ 'agent.yaml': `${AGENT_YAML}extra: ${'['.repeat(3000)}${']'.repeat(3000)}\n` });
    const { code, out } = await validate(dir);
    expect(code).toBe(1);
    expect(out).toMatch(/^agent\.yaml:\d+:\d+ error nests lists or mappings too deeply to be read \(hundreds of levels\); flatten it there$/m);
    expect(out).not.toMatch(/stack/i);
  });

  it("checks self-play.yaml as auggy test reads it: each wrong role is an error with its line, and the file's own YAML too", async () => {
    const roles = folder({ 'self-play.yaml': 'roles:\n  - id: gemini-user\n    model: nope\n  - id: claude-user\n    script: ../outside.yaml\n' });
    const found = await validate(roles);
    expect(found.code).toBe(1);
    expect(found.out).toMatch(/^self-play\.yaml:3(:\d+)? error .*nope/m);
    expect(found.out).toMatch(/^self-play\.yaml:5(:\d+)? error roles\[1\]\.script \.\.\/outside\.yaml /m);
    const broken = await validate(folder({ 'self-play.yaml': 'roles: [\n' }));
    expect(broken.code).toBe(1);
    expect(broken.out).toMatch(/^self-play\.yaml:\d+(:\d+)? error /m);
    expect((await validate(folder({ 'self-play.yaml': 'roles:\n  - id: gemini-user\n    model: ollama:llama3.2\n' }))).code).toBe(0);
    const notAFile = folder({ 'self-play.yaml/readme.md': 'x\n' });
    const unreadable = await validate(notAFile);
    expect(unreadable.code).toBe(1);
    expect(unreadable.out).toMatch(/^self-play\.yaml error self-play\.yaml is a folder, not a regular file; point it at a file$/m);
  });

  it('prints the findings as a JSON array with --json', async () => {
    const dir = folder({ 'augments/turnControl/augment.yaml': 'type: turnControl\nconfig:\n  requestInputDescription: ""\n' });
    const { code, out } = await validate(dir, true);
    expect(code).toBe(1);
    const findings = JSON.parse(out) as Diagnostic[];
    expect(findings).toEqual([
      expect.objectContaining({ severity: 'error', file: 'augments/turnControl/augment.yaml', line: 3, column: 3, field: 'config.requestInputDescription' }),
      expect.objectContaining({ severity: 'warning', file: 'agent.yaml', line: 7, column: 5, field: 'augments[1]' }),
    ]);
  });

  it('prints an empty JSON array for a clean folder', async () => {
    const { code, out } = await validate(join(REPO_ROOT, 'examples', 'demo'), true);
    expect(code).toBe(0);
    expect(JSON.parse(out)).toEqual([]);
  });

  it('refuses a missing folder or a folder without agent.yaml as a usage error', async () => {
    const empty = tempDir('auggy-validate-');
    await expect(validate(empty)).rejects.toThrow(UsageError);
    await expect(validate(empty)).rejects.toThrow(/has no agent\.yaml; pass an agent folder, or create one with: auggy create <name>/);
    await expect(validate(join(empty, 'nope'))).rejects.toThrow(/nope does not exist; pass an agent folder, or create one with: auggy create <name>$/);
    writeFileSync(join(empty, 'plain'), 'not a folder');
    await expect(validate(join(empty, 'plain'))).rejects.toThrow(/plain is not a folder/);
  });

  it('summarises counts with singular and plural words', () => {
    const error: Diagnostic = { severity: 'error', file: 'agent.yaml', message: 'x' };
    const warning: Diagnostic = { severity: 'warning', file: 'agent.yaml', message: 'y' };
    expect(summaryLine('.', [])).toBe('.: no problems found');
    expect(summaryLine('.', [error, warning, warning])).toBe('.: 1 error, 2 warnings');
  });
});
