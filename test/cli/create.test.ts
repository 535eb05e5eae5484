import { describe, expect, it } from 'vitest';
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { createCommand, type CreateIo } from '../../src/cli/create/create-action.js';
import type { CreateFlags } from '../../src/cli/create/answers.js';
import { renderAgentFolder, TEMPLATES_DIR } from '../../src/cli/create/render.js';
import { writeScaffold } from '../../src/cli/create/scaffold.js';
import { agentNameProblem } from '../../src/cli/create/agent-name.js';
import { createReadlinePrompter, PromptCanceled, type Prompter } from '../../src/cli/prompts.js';
import { UsageError } from '../../src/hosts/exit-codes.js';
import { loadAgent } from '../../src/agent/load-agent.js';
import { BUILTIN_AUGMENTS } from '../../src/augments/registry.js';
import { tempDir, treeSnapshot } from '../helpers/temp-dir.js';

const SKILL_TEMPLATE = readFileSync(join(TEMPLATES_DIR, 'skills', 'turnControl', 'SKILL.md'), 'utf8');
const ID_LINE = /^id: aug1_[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/m;

interface Run {
  code: number;
  out: string;
  err: string;
  parent: string;
}

/** Runs create in a fresh temp parent (or `parent`) with no terminal unless a prompter is given. */
async function create(name: string, flags: CreateFlags = {}, options: { parent?: string; prompter?: Prompter; templatesDir?: string } = {}): Promise<Run> {
  const parent = options.parent ?? tempDir('auggy-create-');
  let out = '';
  let err = '';
  const io: CreateIo = {
    out: (text) => (out += text),
    err: (text) => (err += text),
    cwd: parent,
    openPrompter: options.prompter ? () => options.prompter! : undefined,
    templatesDir: options.templatesDir,
  };
  const code = await createCommand(name, flags, io);
  return { code, out, err, parent };
}

function read(dir: string, path: string): string {
  return readFileSync(join(dir, path), 'utf8');
}

/** A prompter that answers from a list and records what it was asked. */
function scriptedPrompter(answers: string[]): Prompter & { asked: string[]; said: string[] } {
  const asked: string[] = [];
  const said: string[] = [];
  return {
    asked,
    said,
    ask: async (question) => {
      asked.push(question);
      const answer = answers.shift();
      if (answer === undefined) throw new Error(`unexpected question: ${question}`);
      return answer;
    },
    say: (text) => said.push(text),
    close: () => {},
  };
}

describe('auggy create writes the agent folder', () => {
  it('writes exactly the seven files with the default provider (openai) and their exact contents', async () => {
    const run = await create('deployer', { purpose: 'Deploy services.' });
    expect(run.code).toBe(0);
    const dir = join(run.parent, 'deployer');
    expect(Object.keys(treeSnapshot(dir)).sort()).toEqual([
      '.env.example',
      '.gitignore',
      'agent.yaml',
      'augments',
      'augments/turnControl',
      'augments/turnControl/augment.yaml',
      'identity.md',
      'skills',
      'skills/turnControl',
      'skills/turnControl/SKILL.md',
      'tests',
      'tests/example.scenario.yaml',
    ]);
    const agentYaml = read(dir, 'agent.yaml');
    expect(agentYaml).toMatch(ID_LINE);
    expect(agentYaml.replace(ID_LINE, 'id: <id>')).toBe(`# Agent configuration: the source of truth for this agent. Edit it freely and check it with
# \`auggy validate\`. Keys this auggy does not know are kept and ignored.
id: <id>
name: deployer
displayName: Deployer
purpose: Deploy services.
creator:
  displayName: the creator
identity: ./identity.md
engine:
  provider: openai
  model: gpt-5.4-mini
  # The most tokens one reply may take, sent with every request.
  maxTokens: 4096
  # The model's context window in tokens: the conversation is compacted to fit it.
  maxContextTokens: 400000
settings:
  maxInferenceLoops: 10
augments:
  - turnControl
`);
    expect(read(dir, 'identity.md')).toBe(`# Deployer

You are Deployer, an agent named \`deployer\`.

Your purpose: Deploy services.

## How you work

- Do what the person asks, directly. When a request is clear enough to act on, act.
- When you are truly blocked by a question only the person can answer, ask it once, clearly,
  and wait for the answer.
- Keep replies short and concrete: say what you did, what you found, and what is next.
`);
    expect(read(dir, 'augments/turnControl/augment.yaml')).toBe('type: turnControl\n');
    expect(read(dir, 'skills/turnControl/SKILL.md')).toBe(SKILL_TEMPLATE);
    expect(read(dir, '.env.example')).toBe(
      '# Provider keys for this agent. Copy this file to .env and fill it in; .env is never committed.\nOPENAI_API_KEY=\n',
    );
    expect(read(dir, '.gitignore')).toBe('# Provider keys stay on this machine.\n.env\n# Run state: sessions, transcripts, boards.\n.auggy/\n');
    expect(run.out).toBe(`Created Deployer in deployer/ (openai, gpt-5.4-mini):
  agent.yaml, identity.md, skills/turnControl, augments/turnControl, tests/example.scenario.yaml, .env.example, .gitignore

Next steps:
  cd deployer
  cp .env.example .env      # then set OPENAI_API_KEY in .env
  auggy run
  auggy test      # runs tests/example.scenario.yaml
`);
  });

  it('gives every agent a fresh aug1_<uuid> id', async () => {
    const first = await create('one');
    const second = await create('two');
    const idOf = (run: Run, name: string) => ID_LINE.exec(read(join(run.parent, name), 'agent.yaml'))?.[0];
    expect(idOf(first, 'one')).toBeDefined();
    expect(idOf(first, 'one')).not.toBe(idOf(second, 'two'));
  });

  it('writes a SKILL.md whose front matter has a name and description and whose guidance covers when not to ask', () => {
    expect(SKILL_TEMPLATE).toMatch(/^---\nname: turnControl\ndescription: \S.*\n---\n/);
    expect(SKILL_TEMPLATE).toMatch(/one specific question/i);
    expect(SKILL_TEMPLATE).toMatch(/closing pleasantry/i);
    expect(SKILL_TEMPLATE).toMatch(/already left to you/i);
    expect(SKILL_TEMPLATE).toMatch(/never loop/i);
  });

  it.each([
    ['anthropic', 'claude-sonnet-4-5', '', 'ANTHROPIC_API_KEY='],
    ['openrouter', 'openai/gpt-5.4-mini', '', 'OPENROUTER_API_KEY='],
    ['ollama', 'llama3.2', 'http://127.0.0.1:11434/v1', '# Ollama runs on this machine and needs no key.'],
    ['openai-compatible', 'local-model', 'http://127.0.0.1:8000/v1', '# Most local servers need no key.'],
  ])('uses the %s defaults (model %s, base URL %j) and says in .env.example which key, if any, to set', async (provider, model, baseURL, keyLine) => {
    const run = await create('agent', { provider, yes: true });
    const dir = join(run.parent, 'agent');
    const engine = [`  provider: ${provider}`, `  model: ${model}`, ...(baseURL ? [`  baseURL: ${baseURL}`] : [])].join('\n');
    expect(read(dir, 'agent.yaml')).toContain(`engine:\n${engine}\n  # The most tokens`);
    expect(read(dir, '.env.example').split('\n')[1]).toMatch(new RegExp(`^${keyLine.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    expect(existsSync(join(dir, 'script.yaml'))).toBe(false);
  });

  it('writes script.yaml and engine.script for the scripted provider, and the folder loads clean offline', async () => {
    const run = await create('offline', { provider: 'scripted' });
    const dir = join(run.parent, 'offline');
    expect(read(dir, 'agent.yaml')).toContain('engine:\n  provider: scripted\n  model: demo\n  script: ./script.yaml\n  # The most tokens');
    expect(read(dir, 'script.yaml')).toBe(read(TEMPLATES_DIR, 'script.yaml'));
    expect(read(dir, 'script.yaml')).toMatch(/^rules:\n/m);
    expect(read(dir, 'script.yaml')).toMatch(/match: "\^\(hello\|hi\)\\\\b"/);
    expect(read(dir, '.env.example')).toContain('needs no key');
    expect(run.out).toContain('# edit script.yaml to change the replies');
    expect(run.out).not.toContain('cp .env');
    const loaded = await loadAgent(dir, BUILTIN_AUGMENTS, { processEnv: {} });
    expect(loaded.diagnostics).toEqual([]);
  });

  it('writes the flags it is given: model, base URL, display name and a purpose that needs YAML quoting', async () => {
    const run = await create('local', {
      provider: 'ollama',
      model: 'qwen2.5:7b',
      baseUrl: 'http://gpu-box:11434/v1',
      displayName: 'Local Helper',
      purpose: 'Deploy: fast, "safely"',
    });
    const dir = join(run.parent, 'local');
    const loaded = await loadAgent(dir, BUILTIN_AUGMENTS, { processEnv: {} });
    expect(loaded.diagnostics).toEqual([]);
    expect(loaded.agent?.yaml).toMatchObject({ displayName: 'Local Helper', purpose: 'Deploy: fast, "safely"' });
    expect(loaded.agent?.engine).toEqual({
      provider: 'ollama',
      model: 'qwen2.5:7b',
      baseURL: 'http://gpu-box:11434/v1',
      maxTokens: 4096,
      maxContextTokens: 4096,
    });
    expect(read(dir, 'agent.yaml')).toContain("  # The model's context window in tokens: Ollama's num_ctx, 4096 unless the model or\n");
    expect(read(dir, 'identity.md')).toContain('Your purpose: Deploy: fast, "safely"');
    expect(run.out).toContain('ollama pull qwen2.5:7b');
  });

  it.each([
    ['anthropic', 'claude-sonnet-4-5', 200_000],
    ['openai', 'gpt-4.1-mini', 1_047_576],
    ['openrouter', 'anthropic/claude-opus-4.1', 200_000],
    ['openai', 'some-new-model', undefined],
    ['openai-compatible', 'local-model', undefined],
  ] as const)('writes engine.maxContextTokens for %s %s when its window is known, and a line to fill in when not', async (provider, model, window) => {
    const run = await create('sized', { provider, model, yes: true });
    const dir = join(run.parent, 'sized');
    const loaded = await loadAgent(dir, BUILTIN_AUGMENTS, { processEnv: { ANTHROPIC_API_KEY: 'k', OPENAI_API_KEY: 'k', OPENROUTER_API_KEY: 'k' } });
    expect(loaded.diagnostics).toEqual([]);
    expect(loaded.agent?.engine.maxContextTokens).toBe(window);
    if (window === undefined) expect(read(dir, 'agent.yaml')).toContain('  # maxContextTokens: 8192\n');
    if (provider === 'openai-compatible') expect(read(dir, 'agent.yaml')).toContain("(llama.cpp's -c, vLLM's --max-model-len)");
  });

  it('creates inside --dir and tells the person the path to cd into', async () => {
    const cwd = tempDir('auggy-cwd-');
    mkdirSync(join(cwd, 'agents'));
    const run = await create('helper', { dir: 'agents' }, { parent: cwd });
    expect(existsSync(join(cwd, 'agents', 'helper', 'agent.yaml'))).toBe(true);
    expect(run.out).toContain('  cd agents/helper\n');
  });

  it('accepts an existing empty folder as the target', async () => {
    const parent = tempDir('auggy-create-');
    mkdirSync(join(parent, 'ready'));
    const run = await create('ready', {}, { parent });
    expect(run.code).toBe(0);
    expect(existsSync(join(parent, 'ready', 'agent.yaml'))).toBe(true);
  });

  it('adds each --augment from the registry: listed in agent.yaml, its augment.yaml and its skill', async () => {
    const extra = BUILTIN_AUGMENTS.find((factory) => factory.type !== 'turnControl' && factory.skill);
    if (!extra?.skill) return; // only turnControl is built in: nothing further to add
    const run = await create('multi', { augment: [extra.type, 'turnControl'] });
    const dir = join(run.parent, 'multi');
    expect(read(dir, 'agent.yaml')).toContain(`augments:\n  - turnControl\n  - ${extra.type}\n`);
    expect(existsSync(join(dir, 'augments', extra.type, 'augment.yaml'))).toBe(true);
    expect(read(dir, `skills/${extra.skill}/SKILL.md`)).toBe(read(TEMPLATES_DIR, `skills/${extra.skill}/SKILL.md`));
  });

  it('leaves the folder and file permissions to the umask, not the 0700 of a temp folder', async () => {
    const run = await create('perms');
    const mode = (await import('node:fs')).statSync(join(run.parent, 'perms')).mode & 0o777;
    expect(mode).toBe(0o777 & ~process.umask());
  });
});

describe('auggy create asks on a terminal and never without one', () => {
  it('asks provider (a numbered list with a default), model, server URL, display name, purpose and creator', async () => {
    const prompter = scriptedPrompter(['9', 'ollama', '', 'not a url', 'http://box:11434/v1', 'Box Agent', 'Watch the box.', 'Ops team']);
    const run = await create('box', {}, { prompter });
    expect(run.code).toBe(0);
    expect(prompter.said[0]).toBe('Provider:');
    expect(prompter.said.slice(1, 7).map((line) => line.trim().split(/\s+/).slice(0, 2).join(' '))).toEqual([
      '1) anthropic',
      '2) openai',
      '3) openrouter',
      '4) ollama',
      '5) openai-compatible',
      '6) scripted',
    ]);
    expect(prompter.said[2]).toMatch(/\(default\)$/);
    expect(prompter.asked).toEqual([
      'Choose 1-6 [2]: ',
      'Choose 1-6 [2]: ',
      'Model [llama3.2]: ',
      'Server URL [http://127.0.0.1:11434/v1]: ',
      'Server URL [http://127.0.0.1:11434/v1]: ',
      'Display name [Box]: ',
      expect.stringMatching(/^Purpose \[.+\]: $/),
      'Creator [the creator]: ',
    ]);
    const loaded = await loadAgent(join(run.parent, 'box'), BUILTIN_AUGMENTS, { processEnv: {} });
    expect(loaded.agent?.engine).toMatchObject({ provider: 'ollama', model: 'llama3.2', baseURL: 'http://box:11434/v1' });
    expect(loaded.agent?.yaml).toMatchObject({ displayName: 'Box Agent', purpose: 'Watch the box.', creator: { displayName: 'Ops team' } });
  });

  it('asks only for what the flags left open, and nothing with --yes', async () => {
    const some = scriptedPrompter(['', '']);
    await create('partial', { provider: 'anthropic', model: 'claude-opus-4-1', purpose: 'p', creator: 'Me' }, { prompter: some });
    expect(some.asked).toEqual(['Display name [Partial]: ']);

    const none = scriptedPrompter([]);
    const run = await create('quiet', { yes: true }, { prompter: none });
    expect(none.asked).toEqual([]);
    expect(read(join(run.parent, 'quiet'), 'agent.yaml')).toContain('provider: openai');
  });

  it('takes the defaults without asking when there is no terminal', async () => {
    const run = await create('piped');
    expect(run.code).toBe(0);
    expect(read(join(run.parent, 'piped'), 'agent.yaml')).toContain('displayName: Piped\n');
  });

  it('stops with exit 130 and writes nothing when the person cancels a prompt', async () => {
    const parent = tempDir('auggy-create-');
    const prompter: Prompter = { ask: async () => Promise.reject(new PromptCanceled()), say: () => {}, close: () => {} };
    const run = await create('canceled', {}, { parent, prompter });
    expect(run.code).toBe(130);
    expect(run.err).toBe('auggy: canceled; nothing was written\n');
    expect(readdirSync(parent)).toEqual([]);
  });

  it('reads answers line by line from real streams with the readline prompter', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let shown = '';
    const answers = ['6', '', 'Demo Two', 'Show things.', ''];
    // Answer each question once it is on screen, as a person would.
    output.on('data', (chunk: Buffer) => {
      shown += chunk.toString();
      if (/: $/.test(shown) && answers.length > 0) input.write(`${answers.shift()}\n`);
    });
    const run = await create('demo-two', {}, { prompter: createReadlinePrompter(input, output) });
    expect(run.code).toBe(0);
    expect(shown).toContain('Choose 1-6 [2]: ');
    expect(shown).toContain('Model [demo]: ');
    const loaded = await loadAgent(join(run.parent, 'demo-two'), BUILTIN_AUGMENTS, { processEnv: {} });
    expect(loaded.agent?.engine.provider).toBe('scripted');
    expect(loaded.agent?.yaml).toMatchObject({ displayName: 'Demo Two', purpose: 'Show things.' });
  });

  it('turns closed input during a question into a cancel instead of waiting forever', async () => {
    const input = new PassThrough();
    const prompter = createReadlinePrompter(input, new PassThrough());
    const answer = prompter.ask('Model: ');
    input.end();
    await expect(answer).rejects.toBeInstanceOf(PromptCanceled);
  });
});

describe('auggy create refuses with exit 2 and touches nothing', () => {
  async function expectRefusal(name: string, flags: CreateFlags, message: RegExp, parent = tempDir('auggy-create-')): Promise<void> {
    const before = treeSnapshot(parent);
    await expect(create(name, flags, { parent })).rejects.toThrow(UsageError);
    await expect(create(name, flags, { parent })).rejects.toThrow(message);
    expect(treeSnapshot(parent)).toEqual(before);
  }

  it('when the target exists and is not empty', async () => {
    const parent = tempDir('auggy-create-');
    mkdirSync(join(parent, 'taken'));
    writeFileSync(join(parent, 'taken', 'notes.txt'), 'mine');
    await expectRefusal('taken', {}, /taken already exists and is not empty; choose another name or remove it first/, parent);
  });

  it('when the target is a file', async () => {
    const parent = tempDir('auggy-create-');
    writeFileSync(join(parent, 'file'), 'x');
    await expectRefusal('file', {}, /already exists and is not empty/, parent);
  });

  it.each([
    ['', /the agent name is empty/],
    ['  ', /the agent name is empty/],
    ['a/b', /has a path separator; give a plain name and choose where it goes with --dir/],
    ['a\\b', /has a path separator/],
    ['.hidden', /starts with "\."; .*; try hidden/],
    ['-flag', /starts with "-"; .*; try flag/],
    ['My Agent', /can only use lowercase letters, digits.*; try my-agent/],
    ['agent!', /can only use lowercase letters.*; try agent$/],
    ['_private', /can only use lowercase letters/],
    ['node_modules', /reserved name/],
    ['con', /reserved name/],
    ['a'.repeat(215), /longer than 214 characters/],
  ])('when the name is %j', async (name, message) => {
    await expectRefusal(name, {}, message);
  });

  it('when the parent folder does not exist or is a file', async () => {
    const parent = tempDir('auggy-create-');
    writeFileSync(join(parent, 'plain'), 'x');
    await expectRefusal('agent', { dir: 'missing' }, /missing is not a folder; create it first or choose another --dir/, parent);
    await expectRefusal('agent', { dir: 'plain' }, /plain is not a folder/, parent);
  });

  it('when the parent folder is not writable', async () => {
    // Root may write anywhere chmod forbids, so as root use a folder the kernel refuses writes in.
    const isRoot = process.getuid?.() === 0;
    const parent = isRoot ? '/sys/fs' : tempDir('auggy-readonly-');
    if (!isRoot) chmodSync(parent, 0o555);
    try {
      const before = readdirSync(parent);
      await expect(create('agent', {}, { parent })).rejects.toThrow(/cannot write in .*; choose a folder you can write to with --dir/);
      expect(readdirSync(parent)).toEqual(before);
    } finally {
      if (!isRoot) chmodSync(parent, 0o755);
    }
  });

  it('for an unknown provider, with the nearest suggestion', async () => {
    await expectRefusal('agent', { provider: 'opneai' }, /--provider "opneai" is not one of anthropic, openai, .*; did you mean openai\?/);
  });

  it('for an unknown --augment id, with the nearest suggestion and the list', async () => {
    await expectRefusal(
      'agent',
      { augment: ['turnContrl'] },
      /--augment "turnContrl" is not a built-in augment; did you mean turnControl\? \(available: turnControl/,
    );
  });

  it('for a --base-url that is not an http(s) URL, or one given to the scripted provider', async () => {
    await expectRefusal('agent', { provider: 'ollama', baseUrl: 'localhost:11434' }, /--base-url "localhost:11434" is not an http\(s\) URL/);
    await expectRefusal('agent', { provider: 'scripted', baseUrl: 'http://x/v1' }, /does not apply to the scripted provider/);
  });
});

describe('the scaffold is atomic', () => {
  const answers = { name: 'atomic', displayName: 'Atomic', purpose: 'p', creator: 'c', provider: 'openai' as const, model: 'm', augments: ['turnControl'] };

  it('leaves no half folder at the target, and no staging folder, when a write fails part-way', () => {
    const parent = tempDir('auggy-atomic-');
    const files = renderAgentFolder(answers, 'aug1_00000000-0000-4000-8000-000000000000');
    let writes = 0;
    const failingWrite = (path: string, content: string) => {
      if (++writes === 3) throw new Error('disk full');
      writeFileSync(path, content);
    };
    expect(() => writeScaffold({ parent, name: 'atomic', files, writeFile: failingWrite })).toThrow('disk full');
    expect(writes).toBe(3);
    expect(readdirSync(parent)).toEqual([]);
  });

  it('writes nothing when a template step fails (a template is missing)', async () => {
    const templates = join(tempDir('auggy-templates-'), 'templates');
    cpSync(TEMPLATES_DIR, templates, { recursive: true });
    rmSync(join(templates, 'gitignore'));
    const parent = tempDir('auggy-atomic-');
    await expect(create('atomic', {}, { parent, templatesDir: templates })).rejects.toThrow(/gitignore/);
    expect(readdirSync(parent)).toEqual([]);
  });

  it('refuses a template that renders an agent.yaml the loader would reject', () => {
    const templates = join(tempDir('auggy-templates-'), 'templates');
    cpSync(TEMPLATES_DIR, templates, { recursive: true });
    writeFileSync(join(templates, 'agent.yaml'), read(templates, 'agent.yaml').replace(/engine:\n[\s\S]*?(?=settings:)/, ''));
    expect(() => renderAgentFolder(answers, 'aug1_00000000-0000-4000-8000-000000000000', templates)).toThrow(/renders an invalid agent.yaml/);
  });

  it('has a skill template for every built-in augment that names one', () => {
    for (const factory of BUILTIN_AUGMENTS.filter((f) => f.skill)) {
      expect(existsSync(join(TEMPLATES_DIR, 'skills', factory.skill!, 'SKILL.md')), `templates/skills/${factory.skill}/SKILL.md`).toBe(true);
    }
  });
});

describe('agent names', () => {
  it('accepts lowercase names with digits, dashes, dots and underscores', () => {
    for (const name of ['demo', 'my-agent', 'agent2', 'a.b_c', '9lives']) expect(agentNameProblem(name)).toBeUndefined();
  });
});
