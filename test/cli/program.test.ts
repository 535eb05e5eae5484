import { describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AUGGY_BIN, REPO_ROOT } from '../helpers/agent-fixture.js';
import { tempDir, writeFiles } from '../helpers/temp-dir.js';

// Keys from the developer's shell must not change what validate reports.
const cleanEnv = { OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', OPENROUTER_API_KEY: '', AUGGY_API_KEY: '', NO_COLOR: '1' };

function auggy(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}) {
  return execa('node', [AUGGY_BIN, ...args], { reject: false, cwd: options.cwd, env: { ...cleanEnv, ...options.env } });
}

const VERSION = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

describe('the auggy binary', () => {
  it('prints the package version with --version and exits 0', async () => {
    const result = await auggy(['--version']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(VERSION);
  });

  it('lists create, run, validate and admin in --help and exits 0', async () => {
    const result = await auggy(['--help']);
    expect(result.exitCode).toBe(0);
    for (const command of ['create', 'run', 'validate', 'admin']) expect(result.stdout).toMatch(new RegExp(`^\\s+${command}\\b`, 'm'));
  });

  it('shows the create options in create --help', async () => {
    const result = await auggy(['create', '--help']);
    expect(result.exitCode).toBe(0);
    for (const option of ['--provider', '--model', '--base-url', '--display-name', '--purpose', '--augment', '--yes', '--dir']) {
      expect(result.stdout).toContain(option);
    }
  });

  it('refuses an unknown command in one line with the nearest suggestion and exit 2', async () => {
    const result = await auggy(['creat', 'x']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe("auggy: unknown command 'creat' (did you mean create?)");
    expect(result.stdout).toBe('');
  });

  it('refuses an unknown option in one line with exit 2', async () => {
    const result = await auggy(['validate', '--jsn']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe("auggy: unknown option '--jsn' (did you mean --json?)");
  });

  it("suggests the closest option for another CLI's camelCase flag", async () => {
    const result = await auggy(['run', '--allowedTools', 'x', '--print', 'hi']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe("auggy: unknown option '--allowedTools' (did you mean --allow-tool?)");
    const serve = await auggy(['serve', '--maxMessageChars=3']);
    expect(serve.stderr).toBe("auggy: unknown option '--maxMessageChars=3' (did you mean --max-message-chars?)");
  });

  it('create without a terminal takes the defaults, never waits for input, and the folder validates', async () => {
    const cwd = tempDir('auggy-bin-');
    // execa gives the child a pipe on stdin that stays open: a prompt would hang here.
    const result = await auggy(['create', 'my-agent'], { cwd });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('Next steps:\n  cd my-agent\n  cp .env.example .env      # then set OPENAI_API_KEY in .env\n  auggy run');
    expect(readdirSync(join(cwd, 'my-agent')).sort()).toEqual(['.env.example', '.gitignore', 'agent.yaml', 'augments', 'identity.md', 'skills', 'tests']);

    const checked = await auggy(['validate', 'my-agent'], { cwd });
    expect(checked.exitCode).toBe(0);
    expect(checked.stdout).toBe(
      'agent.yaml:11:3 warning engine.provider: OPENAI_API_KEY is not set in the environment or in .env; put OPENAI_API_KEY=<your key> in .env (see .env.example) before auggy run\n' +
        'my-agent: 0 errors, 1 warning',
    );
    const withKey = await auggy(['validate', join(cwd, 'my-agent')], { env: { OPENAI_API_KEY: 'sk-test' } });
    expect(withKey.exitCode).toBe(0);
    expect(withKey.stdout).toMatch(/my-agent: no problems found$/);
  });

  it('create with flags writes the scripted engine, and validate --json reports nothing for it', async () => {
    const cwd = tempDir('auggy-bin-');
    const result = await auggy([
      'create',
      'offline',
      '--provider',
      'scripted',
      '--display-name',
      'Offline',
      '--purpose',
      'Demo things.',
      '--yes',
      '--dir',
      cwd,
    ]);
    expect(result.exitCode).toBe(0);
    expect(readFileSync(join(cwd, 'offline', 'agent.yaml'), 'utf8')).toContain('  provider: scripted\n  model: demo\n  script: ./script.yaml\n');
    const checked = await auggy(['validate', join(cwd, 'offline'), '--json']);
    expect(checked.exitCode).toBe(0);
    expect(JSON.parse(checked.stdout)).toEqual([]);
  });

  it('create refuses an existing non-empty target with one line and exit 2, leaving it as it was', async () => {
    const cwd = tempDir('auggy-bin-');
    writeFiles(cwd, { 'taken/keep.txt': 'mine' });
    const result = await auggy(['create', 'taken'], { cwd });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/^auggy: .*taken already exists and is not empty; choose another name or remove it first$/);
    expect(readdirSync(join(cwd, 'taken'))).toEqual(['keep.txt']);
  });

  it('create refuses an unknown --augment with the nearest suggestion and exit 2', async () => {
    const cwd = tempDir('auggy-bin-');
    const result = await auggy(['create', 'x', '--augment', 'turnContrl'], { cwd });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/^auggy: --augment "turnContrl" is not a built-in augment; did you mean turnControl\?/);
    expect(existsSync(join(cwd, 'x'))).toBe(false);
  });

  it('validate exits 1 and prints errors with file:line:col for a broken folder', async () => {
    const dir = tempDir('auggy-bin-');
    writeFiles(dir, { 'agent.yaml': 'name: broken\nengine:\n  provider: opneai\n  model: m\n', 'identity.md': 'x\n' });
    const result = await auggy(['validate', dir]);
    expect(result.exitCode).toBe(1);
    expect(result.stdout.split('\n')).toEqual([
      'agent.yaml:3:3 error engine.provider: "opneai" is not one of anthropic, openai, openrouter, ollama, openai-compatible, scripted; did you mean openai?',
      `${dir}: 1 error, 0 warnings`,
    ]);
  });

  it('validate exits 2 with a clear message where there is no agent folder', async () => {
    const dir = tempDir('auggy-bin-');
    const result = await auggy(['validate'], { cwd: dir });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe('auggy: . has no agent.yaml; pass an agent folder, or create one with: auggy create <name>');
  });

  it('run, serve, test, validate, admin, mcp list and sessions say a missing folder does not exist, with exit 2', async () => {
    const missing = join(tempDir('auggy-bin-'), 'nonexist');
    for (const args of [
      ['run', missing, '-p', 'hi'],
      ['serve', missing],
      ['test', missing],
      ['validate', missing],
      ['admin', missing],
      ['mcp', 'list', missing],
      ['sessions', missing],
    ]) {
      const result = await auggy(args);
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toBe(`auggy: ${missing} does not exist; pass an agent folder, or create one with: auggy create <name>`);
    }
  });

  it('validate passes the bundled demo', async () => {
    const result = await auggy(['validate', join(REPO_ROOT, 'examples', 'demo')]);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/no problems found$/);
  });
});
