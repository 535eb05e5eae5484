import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadAgent } from '../../src/agent/load-agent.js';
import { MAX_AGENT_FILE_BYTES, readBoundedFile } from '../../src/agent/read-agent-file.js';
import { formatDiagnostic } from '../../src/agent/types.js';
import { REPO_ROOT } from '../helpers/agent-fixture.js';
import { tempDir, writeFiles } from '../helpers/temp-dir.js';
import { BUILTIN_AUGMENTS } from '../../src/augments/registry.js';

const AGENT_YAML = `name: bounded
identity: ./identity.md
engine:
  provider: openai
  model: gpt-5.4-mini
augments:
  - turnControl
`;

/** An agent folder inside a parent that also holds a secret, the file a hostile folder would reach for. */
function folderBesideSecret(files: Record<string, string> = {}): { dir: string; secret: string } {
  const parent = tempDir('auggy-bound-');
  const dir = join(parent, 'agent');
  writeFiles(parent, { 'secret.md': 'the secret' });
  writeFiles(dir, { 'agent.yaml': AGENT_YAML, 'identity.md': 'You help.\n', 'augments/turnControl/augment.yaml': 'type: turnControl\n', ...files });
  return { dir, secret: join(parent, 'secret.md') };
}

async function errorLines(dir: string): Promise<string[]> {
  const result = await loadAgent(dir, BUILTIN_AUGMENTS, { processEnv: { OPENAI_API_KEY: 'sk-test' } });
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) expect(result.agent).toBeUndefined();
  return errors.map(formatDiagnostic);
}

describe('paths the folder names stay inside it', () => {
  it('identity: ../secret.md is an error at the identity field, and its text is never loaded', async () => {
    const { dir } = folderBesideSecret({ 'agent.yaml': AGENT_YAML.replace('./identity.md', '../secret.md') });
    expect(await errorLines(dir)).toEqual([
      'agent.yaml:2:1 error identity: ../secret.md is outside the agent folder; auggy reads only files inside the folder, so move the file in',
    ]);
  });

  it('an absolute identity path outside, and an identity.md that is a link out of the folder, are errors too', async () => {
    const absolute = folderBesideSecret();
    writeFileSync(join(absolute.dir, 'agent.yaml'), AGENT_YAML.replace('./identity.md', absolute.secret));
    expect(await errorLines(absolute.dir)).toEqual([expect.stringMatching(/^agent\.yaml:2:1 error identity: \S+secret\.md is outside the agent folder/)]);

    const linked = folderBesideSecret();
    execFileSync('rm', [join(linked.dir, 'identity.md')]);
    symlinkSync(linked.secret, join(linked.dir, 'identity.md'));
    expect(await errorLines(linked.dir)).toEqual([
      expect.stringMatching(/identity: \.\/identity\.md is outside the agent folder \(it leads to \S+secret\.md\)/),
    ]);
  });

  it('a link that stays inside the folder is fine', async () => {
    const { dir } = folderBesideSecret({ 'prompts/main.md': 'You help from a subfolder.\n' });
    execFileSync('rm', [join(dir, 'identity.md')]);
    symlinkSync('prompts/main.md', join(dir, 'identity.md'));
    const result = await loadAgent(dir, BUILTIN_AUGMENTS, { processEnv: { OPENAI_API_KEY: 'sk-test' } });
    expect(result.agent?.identity).toBe('You help from a subfolder.\n');
  });

  it('a skill folder whose SKILL.md leads outside is an error, not guidance sent to the model', async () => {
    const { dir, secret } = folderBesideSecret();
    mkdirSync(join(dir, 'skills', 'leak'), { recursive: true });
    symlinkSync(secret, join(dir, 'skills', 'leak', 'SKILL.md'));
    expect(await errorLines(dir)).toEqual([expect.stringMatching(/^skills\/leak\/SKILL\.md error is outside the agent folder/)]);
  });

  it('engine.script and a workflow pack outside the folder are errors', async () => {
    const scripted = folderBesideSecret({
      'agent.yaml': AGENT_YAML.replace('provider: openai\n  model: gpt-5.4-mini', 'provider: scripted\n  model: demo\n  script: ../secret.md'),
    });
    expect(await errorLines(scripted.dir)).toEqual([
      expect.stringMatching(/^agent\.yaml:6:3 error engine\.script: \.\.\/secret\.md is outside the agent folder/),
    ]);

    const pack = folderBesideSecret({
      'agent.yaml': `${AGENT_YAML}  - workflow\n`,
      'augments/workflow/augment.yaml': 'type: workflow\nconfig:\n  pack: ../secret.md\n',
      'skills/workflow/SKILL.md': readFileSync(join(REPO_ROOT, 'templates', 'skills', 'workflow', 'SKILL.md'), 'utf8'),
    });
    expect(await errorLines(pack.dir)).toEqual([expect.stringMatching(/secret\.md error the workflow pack is outside the agent folder/)]);
  });
});

describe('files the loader reads are small regular files', () => {
  it('an agent.yaml that is a named pipe is refused at once instead of hanging the loader', async () => {
    const { dir } = folderBesideSecret();
    execFileSync('rm', [join(dir, 'agent.yaml')]);
    execFileSync('mkfifo', [join(dir, 'agent.yaml')]);
    expect(await errorLines(dir)).toEqual(['agent.yaml error is a named pipe (FIFO), not a regular file; point it at a file']);
  });

  it('an agent.yaml over 1 MiB is refused without being parsed', async () => {
    const { dir } = folderBesideSecret({ 'agent.yaml': `${AGENT_YAML}# ${'x'.repeat(MAX_AGENT_FILE_BYTES)}\n` });
    expect(await errorLines(dir)).toEqual([
      expect.stringMatching(
        /^agent\.yaml error is 1,048,\d{3} bytes, more than the 1,048,576 bytes \(1 MiB\) a file of the agent folder may hold; make it smaller$/,
      ),
    ]);
  });

  it('a .env that leads to /dev/zero is reported, never read', async () => {
    const { dir } = folderBesideSecret();
    symlinkSync('/dev/zero', join(dir, '.env'));
    expect(await errorLines(dir)).toEqual(['.env error is a device, not a regular file; point it at a file; .env holds the provider keys as NAME=value lines']);
    expect(readBoundedFile('/dev/zero')).toMatchObject({ ok: false, problem: 'not-a-file' });
  });

  it('a YAML alias bomb is refused with one sentence', async () => {
    const bomb = [
      'name: bomb',
      'a: &a [x, x, x, x, x, x, x, x, x]',
      'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]',
      'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]',
      'd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]',
      'e: [*d, *d, *d, *d, *d, *d, *d, *d, *d]',
      '',
    ].join('\n');
    const { dir } = folderBesideSecret({ 'agent.yaml': bomb });
    expect(await errorLines(dir)).toEqual([
      'agent.yaml:1:1 error repeats YAML aliases (*name) so often that reading it would exhaust memory (an alias bomb), so it is refused; write the values out',
    ]);
  });
});
