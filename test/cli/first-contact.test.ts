import { describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { AUGGY_BIN, REPO_ROOT, copyExample } from '../helpers/agent-fixture.js';
import { tempDir } from '../helpers/temp-dir.js';

const CLEAN_ENV = { OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', AUGGY_MODEL: '', AUGGY_BASE_URL: '', AUGGY_API_KEY: '', NO_COLOR: '1' };

/** The binary run from `cwd`, as a person would start it there. */
function auggyIn(cwd: string, args: string[], input?: string) {
  return execa('node', [AUGGY_BIN, ...args], { cwd, reject: false, env: CLEAN_ENV, ...(input !== undefined ? { input } : {}) });
}

/** A shell line run from `cwd` with an `auggy` on the PATH: how a printed command is typed back. */
function shellIn(cwd: string, line: string) {
  const bin = tempDir('auggy-path-');
  symlinkSync(AUGGY_BIN, join(bin, 'auggy'));
  return execa('sh', ['-c', line], { cwd, reject: false, env: { ...CLEAN_ENV, PATH: `${bin}:${process.env.PATH ?? ''}` } });
}

describe("the README's first two commands, in order", () => {
  it('the first leaves sessions in examples/demo/.auggy; git ignores them and test copies start without them', async () => {
    // A fresh copy of the clone's examples, so the repository itself is never written.
    const clone = tempDir('auggy-clone-');
    cpSync(join(REPO_ROOT, 'examples'), join(clone, 'examples'), { recursive: true, filter: (path) => !path.includes('.auggy') });
    const first = await auggyIn(clone, ['run', 'examples/demo', '--print', 'hello']);
    expect(first.exitCode).toBe(0);
    expect(readdirSync(join(clone, 'examples', 'demo', '.auggy', 'sessions'))).toHaveLength(1);

    const ignored = await execa('git', ['check-ignore', '-q', 'examples/demo/.auggy/sessions/x/events.jsonl'], { cwd: REPO_ROOT, reject: false });
    expect(ignored.exitCode).toBe(0);

    const copy = copyExample('demo', join(clone, 'examples'));
    expect(existsSync(join(copy, '.auggy'))).toBe(false);
    expect(existsSync(join(copy, 'agent.yaml'))).toBe(true);
    // The next run there starts a session of its own instead of finding the first one's.
    const next = await auggyIn(copy, ['-p', '--continue', 'hello']);
    expect(next.exitCode).toBe(0);
    expect(readdirSync(join(copy, '.auggy', 'sessions'))).toHaveLength(1);
  });
});

describe('every -p form', () => {
  const forms: [string, string[], string | undefined][] = [
    ['auggy run -p "msg"', ['run', '-p', 'hello'], undefined],
    ['auggy run --print "msg"', ['run', '--print', 'hello'], undefined],
    ['auggy -p "msg"', ['-p', 'hello'], undefined],
    ['auggy --print "msg"', ['--print', 'hello'], undefined],
    ['auggy run . -p "msg"', ['run', '.', '-p', 'hello'], undefined],
    ['echo msg | auggy -p', ['-p'], 'hello'],
    ['echo msg | auggy run -p -', ['run', '-p', '-'], 'hello'],
  ];
  for (const [form, args, input] of forms) {
    it(`inside an agent folder, ${form} runs one turn there`, async () => {
      const dir = copyExample();
      const result = await auggyIn(dir, args, input);
      expect(result.stderr).not.toContain('has no agent.yaml');
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toContain("Hello! I'm the demo agent.");
    });
  }

  it('outside it, auggy run DIR -p "msg" and stdin into auggy run DIR -p still name the folder first', async () => {
    const dir = copyExample();
    const parent = dirname(dir);
    const named = await auggyIn(parent, ['run', 'demo', '-p', 'hello']);
    expect(named.exitCode).toBe(0);
    expect(named.stdout).toContain("Hello! I'm the demo agent.");
    const piped = await auggyIn(parent, ['run', 'demo', '-p'], 'hello');
    expect(piped.exitCode).toBe(0);
    expect(piped.stdout).toContain("Hello! I'm the demo agent.");
  });

  it('outside any agent folder, auggy -p "msg" says why in one sentence and exits 2', async () => {
    const cwd = tempDir('auggy-nowhere-');
    for (const args of [
      ['-p', 'hello'],
      ['run', '--print', 'hello'],
    ]) {
      const result = await auggyIn(cwd, args);
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toMatch(/^auggy: .* has no agent\.yaml, and "hello" was read as the message because no folder has that name; /);
      expect(result.stderr.split('\n')).toHaveLength(1);
    }
  });

  it('documents the rule in auggy run --help', async () => {
    const help = await auggyIn(REPO_ROOT, ['run', '--help']);
    expect(help.stdout).toContain('With --print and one, it is the folder when it names an existing directory');
    expect(help.stdout).toContain('--output-format');
    expect(help.stdout).toContain('-r, --resume [id]');
  });
});

describe('the answer command printed after a question', () => {
  it('works typed back exactly as printed, from the folder above and from inside', async () => {
    const dir = copyExample();
    for (const cwd of [dirname(dir), dir]) {
      const first = await execa('node', [AUGGY_BIN, 'run', dir, '--print', 'deploy the api'], { cwd, reject: false, env: CLEAN_ENV });
      expect(first.exitCode).toBe(3);
      const line = first.stderr.split('\n').find((text) => text.startsWith('waiting for your reply: answer with '));
      expect(line).toBeDefined();
      const printed = line!.slice('waiting for your reply: answer with '.length);
      // One space after "with": the command starts right there.
      expect(printed).toMatch(/^\S.* --print --session \S+ "<answer>"$/);
      const answered = await execa('sh', ['-c', printed.replace('<answer>', 'api-west')], { cwd, reject: false, env: CLEAN_ENV });
      expect(answered.exitCode).toBe(0);
      expect(answered.stdout).toContain('Deploying that service now');
    }
  });

  it('starts with auggy when auggy came from the PATH, and names the folder', async () => {
    const dir = copyExample();
    const cwd = dirname(dir);
    const asked = await shellIn(cwd, 'auggy run demo -p "deploy the api"');
    expect(asked.exitCode).toBe(3);
    expect(asked.stderr).toMatch(/answer with auggy run demo --print --session \S+ "<answer>"$/m);
  });
});

describe('bare auggy without a terminal', () => {
  it('prints the help and exits 0, in an agent folder or not', async () => {
    for (const cwd of [copyExample(), tempDir('auggy-bare-')]) {
      const result = await auggyIn(cwd, []);
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toContain('Usage: auggy');
      expect(result.stdout).toContain('Environment variables:');
    }
  });
});

describe('the root --help', () => {
  it('has examples, the environment variables and the exit codes', async () => {
    const help = await auggyIn(REPO_ROOT, ['--help']);
    expect(help.exitCode).toBe(0);
    for (const part of ['Examples:', 'auggy -p "hello"', 'Environment variables:', 'AUGGY_MODEL', 'NO_COLOR', 'Exit codes:', '130', 'sessions']) {
      expect(help.stdout).toContain(part);
    }
    expect(help.stdout).toMatch(/^ {2}143 {2}with --print or test: stopped by SIGTERM/m);
  });

  it('shows numeric defaults as numbers, not quoted strings', async () => {
    const serve = await auggyIn(REPO_ROOT, ['serve', '--help']);
    const run = await auggyIn(REPO_ROOT, ['run', '--help']);
    for (const shown of ['(default: 8787)', '(default: 32000)', '(default: 5000)']) expect(serve.stdout.replace(/\s+/g, ' ')).toContain(shown);
    expect(run.stdout.replace(/\s+/g, ' ')).toContain('(default: 32000)');
    expect(`${serve.stdout}${run.stdout}`).not.toMatch(/default: "\d+"/);
  });
});

describe('--output-format', () => {
  it('is taken as --output is', async () => {
    const dir = copyExample();
    const result = await auggyIn(dir, ['-p', 'hello', '--output-format', 'json']);
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ status: 'completed' });
  });
});

describe('sessions and --resume without a terminal', () => {
  async function folderWithSessions() {
    const dir = copyExample();
    expect((await auggyIn(dir, ['-p', 'hello'])).exitCode).toBe(0);
    expect((await auggyIn(dir, ['-p', 'deploy the api'])).exitCode).toBe(3);
    // A chat opened and quit leaves a session with nothing said in it.
    mkdirSync(join(dir, '.auggy', 'sessions', '20991231-000000-aaaaaa'), { recursive: true });
    await execa(
      'sh',
      [
        '-c',
        `printf '%s\\n' '{"kind":"header","version":1,"sessionId":"20991231-000000-aaaaaa","agentName":"demo","createdAt":"2099-12-31T00:00:00.000Z"}' > .auggy/sessions/20991231-000000-aaaaaa/events.jsonl`,
      ],
      { cwd: dir },
    );
    return dir;
  }

  it('auggy sessions lists them newest first with when, how each ended and its first message; --json too', async () => {
    const dir = await folderWithSessions();
    const listed = await auggyIn(dir, ['sessions']);
    expect(listed.exitCode).toBe(0);
    const rows = listed.stdout.split('\n').filter((line) => /^\d{8}-/.test(line));
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatch(/just now\s+waiting for your answer\s+deploy the api$/);
    expect(rows[1]).toMatch(/just now\s+completed\s+hello$/);
    expect(listed.stdout).toContain('resume one with: ');

    const json = JSON.parse((await auggyIn(dirname(dir), ['sessions', 'demo', '--json'])).stdout) as {
      id: string;
      ended: string;
      firstMessage: string;
      question?: string;
    }[];
    expect(json.map((s) => [s.ended, s.firstMessage])).toEqual([
      ['input-required', 'deploy the api'],
      ['completed', 'hello'],
    ]);
    expect(json[0].question).toContain('api-west or api-east');
  });

  it('--resume without an id prints the same list; with an id it resumes that session', async () => {
    const dir = await folderWithSessions();
    const listed = await auggyIn(dir, ['run', '--resume']);
    expect(listed.exitCode).toBe(0);
    expect(listed.stdout).toContain('waiting for your answer');
    const [{ id }] = JSON.parse((await auggyIn(dir, ['sessions', '--json'])).stdout) as { id: string }[];
    const resumed = await auggyIn(dir, ['-p', '--resume', id, 'api-west']);
    expect(resumed.exitCode).toBe(0);
    expect(resumed.stdout).toContain('Deploying that service now');
    expect(JSON.parse((await auggyIn(dir, ['sessions', '--json'])).stdout)[0]).toMatchObject({ id, ended: 'completed', messages: 2 });
  });

  it('--continue skips a session where nothing was said', async () => {
    const dir = await folderWithSessions();
    const result = await auggyIn(dir, ['-p', '--continue', 'api-east', '--output', 'json']);
    expect(result.exitCode).toBe(0);
    const [newest] = JSON.parse((await auggyIn(dir, ['sessions', '--json'])).stdout) as { id: string; firstMessage: string }[];
    expect(JSON.parse(result.stdout).sessionId).toBe(newest.id);
    expect(newest.firstMessage).toBe('deploy the api');
  });
});

describe('a closed stdout', () => {
  it('ends auggy quietly, with no EPIPE and no stack trace', async () => {
    const dir = copyExample();
    const child = execa('node', [AUGGY_BIN, '-p', 'plan a release', '--output', 'stream-json'], {
      cwd: dir,
      reject: false,
      env: CLEAN_ENV,
      buffer: { stdout: false },
    });
    // The reader goes away at once, as `| head -c 1` does.
    child.stdout?.destroy();
    const result = await child;
    expect(result.stderr).not.toMatch(/EPIPE|at .*\.js:\d+/);
    expect(result.exitCode).toBe(0);
  });

  it('ends auggy quietly under a shell pipe into head', async () => {
    const dir = copyExample();
    const result = await execa('sh', ['-c', `node ${AUGGY_BIN} -p "plan a release" --output stream-json | head -c 20 >/dev/null`], {
      cwd: dir,
      reject: false,
      env: CLEAN_ENV,
    });
    expect(result.stderr).not.toContain('EPIPE');
    expect(result.exitCode).toBe(0);
  });
});

describe('a warning about the folder', () => {
  it('says "warning" once, and suggests the augment a misspelt name was meant to be', async () => {
    const dir = copyExample();
    const yaml = join(dir, 'agent.yaml');
    writeFileSync(yaml, readFileSync(yaml, 'utf8').replace('  - userAsk', '  - userAks'));
    const result = await auggyIn(dir, ['-p', 'hello']);
    const line = result.stderr.split('\n').find((text) => text.includes('userAks'));
    expect(line).toMatch(/^auggy: warning: agent\.yaml:\d+:\d+ augments\[\d\]: userAks is not supported here, ignored \(did you mean userAsk\?\)/);
    expect(line?.match(/warning/g)).toHaveLength(1);
  });
});

describe('auggy inside a subfolder of an agent folder', () => {
  it('finds the agent above, as git finds its repository, and says which folder it used', async () => {
    const agent = copyExample('demo');
    const deeper = join(agent, 'notes', 'drafts');
    mkdirSync(deeper, { recursive: true });
    const turn = await auggyIn(deeper, ['-p', 'hello']);
    expect(turn.exitCode).toBe(0);
    expect(turn.stdout).toContain("I'm the demo agent");
    expect(turn.stderr).toContain(`auggy: using the agent in ../.. (${agent}), the nearest folder above this one with an agent.yaml`);
    expect(readdirSync(join(agent, '.auggy', 'sessions'))).toHaveLength(1);
    expect(existsSync(join(deeper, '.auggy'))).toBe(false);

    const checked = await auggyIn(deeper, ['validate']);
    expect(checked.stdout).toBe(`${agent}: no problems found`);
    const listed = await auggyIn(deeper, ['sessions', '--json']);
    expect(JSON.parse(listed.stdout)).toHaveLength(1);
  });

  it('a folder named on the command line is used as given, without searching', async () => {
    const agent = copyExample('demo');
    mkdirSync(join(agent, 'notes'));
    const checked = await auggyIn(agent, ['validate', 'notes']);
    expect(checked.exitCode).toBe(2);
    expect(checked.stderr).toBe('auggy: notes has no agent.yaml; pass an agent folder, or create one with: auggy create <name>');
  });
});
