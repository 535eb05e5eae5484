import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadAgent } from '../../src/agent/load-agent.js';
import { formatDiagnostic, type Diagnostic } from '../../src/agent/types.js';
import { tempDir, writeFiles } from '../helpers/temp-dir.js';
import { REPO_ROOT, makeAgentFolder } from '../helpers/agent-fixture.js';
import { BUILTIN_AUGMENTS } from '../../src/augments/registry.js';

// More augments arrive with later issues; the warning lists whatever this build implements.
const SUPPORTED = BUILTIN_AUGMENTS.map((factory) => factory.type).join(', ');

const SKILL = readFileSync(join(REPO_ROOT, 'templates', 'skills', 'turnControl', 'SKILL.md'), 'utf8');

const VALID_YAML = `# Agent configuration
id: aug1_5f0c2a4e-8d3b-4c71-9a26-3e8b1d7f4c90
name: deployer
displayName: Deployer
purpose: Deploy services.
identity: ./identity.md
engine:
  provider: openai
  model: gpt-5.4-mini
settings:
  maxInferenceLoops: 10
augments:
  - turnControl
`;

/** A complete, valid agent folder, with `files` replacing or adding to it. */
function agentFolder(files: Record<string, string> = {}): string {
  const dir = join(tempDir('auggy-load-'), 'agent');
  writeFiles(dir, {
    'agent.yaml': VALID_YAML,
    'identity.md': '# Deployer\n\nYou deploy services.\n',
    'augments/turnControl/augment.yaml': 'type: turnControl\n',
    'skills/turnControl/SKILL.md': SKILL,
    ...files,
  });
  return dir;
}

const withKey = { OPENAI_API_KEY: 'sk-test' };

function errors(diagnostics: Diagnostic[]): Diagnostic[] {
  return diagnostics.filter((d) => d.severity === 'error');
}

function warnings(diagnostics: Diagnostic[]): Diagnostic[] {
  return diagnostics.filter((d) => d.severity === 'warning');
}

describe('loadAgent on a valid folder', () => {
  it('loads agent.yaml, identity, skills and augments with no diagnostics', async () => {
    const dir = agentFolder();
    const result = await loadAgent(dir, BUILTIN_AUGMENTS, { processEnv: withKey });
    expect(result.diagnostics).toEqual([]);
    const agent = result.agent!;
    expect(agent.dir).toBe(dir);
    expect(agent.yaml.name).toBe('deployer');
    expect(agent.displayName).toBe('Deployer');
    expect(agent.engine).toEqual({ provider: 'openai', model: 'gpt-5.4-mini' });
    expect(agent.identity).toBe('# Deployer\n\nYou deploy services.\n');
    expect(agent.skills).toEqual([expect.objectContaining({ id: 'turnControl', name: 'turnControl', file: 'skills/turnControl/SKILL.md' })]);
    expect(agent.skills[0].body).toMatch(/^# Asking with request_input/);
    expect(agent.augments).toEqual([{ id: 'turnControl', type: 'turnControl', config: {}, file: 'augments/turnControl/augment.yaml' }]);
    expect(agent.env).toEqual({});
  });

  it('loads the bundled demo example without errors or warnings', async () => {
    const result = await loadAgent(join(REPO_ROOT, 'examples', 'demo'), BUILTIN_AUGMENTS, { processEnv: {} });
    expect(result.diagnostics).toEqual([]);
    expect(result.agent?.engine).toEqual({ provider: 'scripted', model: 'demo', script: './script.yaml' });
    expect(result.agent?.displayName).toBe('Demo');
  });

  it('defaults displayName to name, settings and augments when they are absent', async () => {
    const dir = agentFolder({
      'agent.yaml': 'name: bare\nengine:\n  provider: ollama\n  model: llama3.2\n',
      'skills/turnControl/SKILL.md': '',
    });
    const result = await loadAgent(dir, BUILTIN_AUGMENTS, { processEnv: {} });
    expect(result.agent?.displayName).toBe('bare');
    expect(result.agent?.yaml.settings.maxInferenceLoops).toBe(10);
    expect(result.agent?.augments).toEqual([]);
  });

  it('reads .env into agent.env and counts its key as set, without ever putting the value in a diagnostic', async () => {
    const dir = agentFolder({ '.env': 'OPENAI_API_KEY=sk-from-dotenv\nOTHER="quoted value"\n' });
    const result = await loadAgent(dir, BUILTIN_AUGMENTS, { processEnv: {} });
    expect(result.agent?.env).toEqual({ OPENAI_API_KEY: 'sk-from-dotenv', OTHER: 'quoted value' });
    expect(result.diagnostics).toEqual([]);
  });

  it('reads the identity file from the path agent.yaml gives', async () => {
    const dir = agentFolder({
      'agent.yaml': VALID_YAML.replace('identity: ./identity.md', 'identity: ./prompts/main.md'),
      'prompts/main.md': 'Custom instructions.\n',
    });
    const result = await loadAgent(dir, BUILTIN_AUGMENTS, { processEnv: withKey });
    expect(result.agent?.identity).toBe('Custom instructions.\n');
  });
});

describe('loadAgent errors point at the file, line and column', () => {
  it('reports a YAML syntax error at the parser position and returns no agent', async () => {
    const dir = agentFolder({ 'agent.yaml': 'name: x\nengine:\n  provider: openai\n  model: [gpt\n' });
    const result = await loadAgent(dir, BUILTIN_AUGMENTS, { processEnv: withKey });
    expect(result.agent).toBeUndefined();
    expect(result.diagnostics).toHaveLength(1);
    expect(result.diagnostics[0]).toMatchObject({ severity: 'error', file: 'agent.yaml', line: 5 });
    expect(result.diagnostics[0].message).toMatch(/fix the YAML syntax/);
  });

  it('reports a duplicate key as a YAML error on its line', async () => {
    const dir = agentFolder({ 'agent.yaml': VALID_YAML.replace('name: deployer\n', 'name: deployer\nname: again\n') });
    const result = await loadAgent(dir, BUILTIN_AUGMENTS, { processEnv: withKey });
    expect(result.diagnostics).toEqual([expect.objectContaining({ severity: 'error', file: 'agent.yaml', line: 4, column: 1 })]);
  });

  it('names an unknown provider, lists the allowed ones and suggests the nearest', async () => {
    const dir = agentFolder({ 'agent.yaml': VALID_YAML.replace('provider: openai', 'provider: opneai') });
    const result = await loadAgent(dir, BUILTIN_AUGMENTS, { processEnv: withKey });
    expect(result.agent).toBeUndefined();
    expect(errors(result.diagnostics).map(formatDiagnostic)).toEqual([
      'agent.yaml:8:3 error engine.provider: "opneai" is not one of anthropic, openai, openrouter, ollama, openai-compatible, scripted; did you mean openai?',
    ]);
  });

  it('says a missing required field is required and how to add it, at its parent', async () => {
    const dir = agentFolder({ 'agent.yaml': VALID_YAML.replace('  model: gpt-5.4-mini\n', '') });
    const result = await loadAgent(dir, BUILTIN_AUGMENTS, { processEnv: withKey });
    expect(errors(result.diagnostics)).toEqual([
      { severity: 'error', file: 'agent.yaml', line: 7, column: 1, field: 'engine.model', message: 'is required; add model: gpt-5.4-mini under engine' },
    ]);
  });

  it('reports a missing top-level field without inventing a line', async () => {
    const dir = agentFolder({ 'agent.yaml': VALID_YAML.replace('name: deployer\n', '') });
    const result = await loadAgent(dir, BUILTIN_AUGMENTS, { processEnv: withKey });
    expect(errors(result.diagnostics)).toEqual([{ severity: 'error', file: 'agent.yaml', field: 'name', message: 'is required; add name: my-agent' }]);
  });

  it('reports wrong types, bad URLs and out-of-range numbers each on their own line', async () => {
    const yaml = VALID_YAML.replace('  model: gpt-5.4-mini\n', '  model: 5\n  baseURL: localhost\n').replace('maxInferenceLoops: 10', 'maxInferenceLoops: 0');
    const result = await loadAgent(agentFolder({ 'agent.yaml': yaml }), BUILTIN_AUGMENTS, { processEnv: withKey });
    expect(errors(result.diagnostics).map(formatDiagnostic)).toEqual([
      'agent.yaml:9:3 error engine.model: must be text, not a number (5)',
      'agent.yaml:10:3 error engine.baseURL: "localhost" is not a URL; write it in full, like http://127.0.0.1:11434/v1',
      'agent.yaml:12:3 error settings.maxInferenceLoops: must be at least 1, not 0',
    ]);
  });

  it('reports an id that is not aug1_<uuid>', async () => {
    const dir = agentFolder({ 'agent.yaml': VALID_YAML.replace(/^id: .*$/m, 'id: 42abc') });
    const result = await loadAgent(dir, BUILTIN_AUGMENTS, { processEnv: withKey });
    expect(errors(result.diagnostics).map(formatDiagnostic)).toEqual(['agent.yaml:2:1 error id: "42abc" must look like aug1_<uuid>']);
  });

  it('refuses an agent.yaml that is not a mapping', async () => {
    const result = await loadAgent(agentFolder({ 'agent.yaml': '- just\n- a list\n' }), BUILTIN_AUGMENTS, { processEnv: withKey });
    expect(result.diagnostics).toEqual([expect.objectContaining({ severity: 'error', file: 'agent.yaml', line: 1, column: 1 })]);
    expect(result.diagnostics[0].message).toMatch(/must be a mapping of keys/);
  });

  it('reports a missing identity file at the identity line', async () => {
    const dir = agentFolder({ 'agent.yaml': VALID_YAML.replace('./identity.md', './missing.md') });
    const result = await loadAgent(dir, BUILTIN_AUGMENTS, { processEnv: withKey });
    expect(result.agent).toBeUndefined();
    expect(errors(result.diagnostics).map(formatDiagnostic)).toEqual([
      "agent.yaml:6:1 error identity: ./missing.md does not exist; write the agent's instructions there, or point identity: at the right file",
    ]);
  });

  it('requires a script for the scripted provider, and the file it names', async () => {
    const noScript = VALID_YAML.replace('provider: openai', 'provider: scripted');
    const missing = agentFolder({ 'agent.yaml': noScript });
    expect(errors((await loadAgent(missing, BUILTIN_AUGMENTS, { processEnv: {} })).diagnostics).map(formatDiagnostic)).toEqual([
      'agent.yaml:7:1 error engine: the scripted provider needs a rules file; add script: ./script.yaml under engine',
    ]);
    const absent = agentFolder({ 'agent.yaml': noScript.replace('  model: gpt-5.4-mini\n', '  model: demo\n  script: ./nope.yaml\n') });
    expect(errors((await loadAgent(absent, BUILTIN_AUGMENTS, { processEnv: {} })).diagnostics).map(formatDiagnostic)).toEqual([
      'agent.yaml:10:3 error engine.script: ./nope.yaml does not exist; create the rules file or fix the path (it is relative to the agent folder)',
    ]);
  });

  it('reports augment config errors in augment.yaml at the line of the field', async () => {
    const dir = agentFolder({ 'augments/turnControl/augment.yaml': 'type: turnControl\nconfig:\n  requestInputDescription: 5\n' });
    const result = await loadAgent(dir, BUILTIN_AUGMENTS, { processEnv: withKey });
    expect(result.agent).toBeUndefined();
    expect(errors(result.diagnostics)).toEqual([
      expect.objectContaining({ file: 'augments/turnControl/augment.yaml', line: 3, column: 3, field: 'config.requestInputDescription' }),
    ]);
  });

  it('reports a YAML error and a missing type in augment.yaml', async () => {
    const broken = agentFolder({ 'augments/turnControl/augment.yaml': 'type: [turnControl\n' });
    expect(errors((await loadAgent(broken, BUILTIN_AUGMENTS, { processEnv: withKey })).diagnostics)).toEqual([
      expect.objectContaining({ file: 'augments/turnControl/augment.yaml', line: 2 }),
    ]);
    const untyped = agentFolder({ 'augments/turnControl/augment.yaml': 'config: {}\n' });
    expect(errors((await loadAgent(untyped, BUILTIN_AUGMENTS, { processEnv: withKey })).diagnostics)).toEqual([
      { severity: 'error', file: 'augments/turnControl/augment.yaml', field: 'type', message: 'is required; add type: turnControl' },
    ]);
  });

  it('accepts an empty config: in augment.yaml as no settings', async () => {
    const dir = agentFolder({ 'augments/turnControl/augment.yaml': 'type: turnControl\nconfig:\n' });
    const result = await loadAgent(dir, BUILTIN_AUGMENTS, { processEnv: withKey });
    expect(result.diagnostics).toEqual([]);
    expect(result.agent?.augments[0].config).toEqual({});
  });

  it('refuses augment ids that are not folder names, and ids listed twice', async () => {
    const yaml = VALID_YAML.replace('  - turnControl\n', '  - turnControl\n  - ../outside\n  - turnControl\n');
    const result = await loadAgent(agentFolder({ 'agent.yaml': yaml }), BUILTIN_AUGMENTS, { processEnv: withKey });
    expect(errors(result.diagnostics).map(formatDiagnostic)).toEqual([
      'agent.yaml:14:5 error augments[1]: "../outside" is not an augment folder name; list the name of a folder under augments/',
      'agent.yaml:15:5 error augments[2]: turnControl is listed twice; remove one of the lines',
    ]);
  });

  it('takes inline entries {name?, type, options}: implemented ones configured from options, errors pointed into agent.yaml', async () => {
    const inline = VALID_YAML.replace(
      '  - turnControl\n',
      '  - type: turnControl\n    options:\n      requestInputDescription: Ask once.\n  - name: fetch\n    type: webFetch\n    options:\n      timeoutMs: 5000\n',
    );
    const result = await loadAgent(agentFolder({ 'agent.yaml': inline }), BUILTIN_AUGMENTS, { processEnv: withKey });
    expect(errors(result.diagnostics)).toEqual([]);
    expect(result.agent?.augments).toEqual([{ id: 'turnControl', type: 'turnControl', config: { requestInputDescription: 'Ask once.' } }]);
    expect(result.diagnostics.map(formatDiagnostic)).toContain(
      'agent.yaml:16:5 warning augments[1]: fetch (type webFetch) is not supported here, ignored; this auggy implements turnControl, workflow, userAsk, goal, board, questions, mcp, a2a',
    );
    const bad = VALID_YAML.replace('  - turnControl\n', '  - type: turnControl\n    options:\n      requestInputDescription: ""\n');
    const refused = await loadAgent(agentFolder({ 'agent.yaml': bad }), BUILTIN_AUGMENTS, { processEnv: withKey });
    expect(errors(refused.diagnostics)).toEqual([
      expect.objectContaining({ file: 'agent.yaml', line: 15, field: 'augments[0].options.requestInputDescription' }),
    ]);
  });

  it('keeps checking the rest of the folder when agent.yaml has schema errors', async () => {
    const dir = agentFolder({
      'agent.yaml': VALID_YAML.replace('provider: openai', 'provider: nope').replace('./identity.md', './gone.md'),
      'augments/turnControl/augment.yaml': 'type: turnControl\nconfig:\n  requestInputDescription: ""\n',
    });
    const result = await loadAgent(dir, BUILTIN_AUGMENTS, { processEnv: withKey });
    expect(errors(result.diagnostics).map((d) => d.field)).toEqual(['engine.provider', 'identity', 'config.requestInputDescription']);
  });

  it('says when the folder or its agent.yaml does not exist', async () => {
    const empty = tempDir('auggy-empty-');
    expect((await loadAgent(empty, BUILTIN_AUGMENTS)).diagnostics[0].message).toMatch(/^not found in .*auggy create <name>/);
    expect((await loadAgent(join(empty, 'nope'), BUILTIN_AUGMENTS)).diagnostics[0].message).toMatch(/is not a folder/);
  });
});

describe('loadAgent warnings', () => {
  it('warns when the provider key is set in neither the environment nor .env', async () => {
    const result = await loadAgent(agentFolder(), BUILTIN_AUGMENTS, { processEnv: {} });
    expect(result.agent).toBeDefined();
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([
      'agent.yaml:8:3 warning engine.provider: OPENAI_API_KEY is not set in the environment or in .env; put OPENAI_API_KEY=<your key> in .env (see .env.example) before auggy run',
    ]);
  });

  it('takes the key variable from engine.apiKeyEnv, and accepts AUGGY_API_KEY for any provider', async () => {
    const yaml = VALID_YAML.replace(
      'provider: openai\n  model: gpt-5.4-mini',
      'provider: openai-compatible\n  model: m\n  baseURL: http://127.0.0.1:8000/v1\n  apiKeyEnv: LOCAL_KEY',
    );
    const dir = agentFolder({ 'agent.yaml': yaml });
    expect(warnings((await loadAgent(dir, BUILTIN_AUGMENTS, { processEnv: {} })).diagnostics)).toEqual([
      expect.objectContaining({ field: 'engine.apiKeyEnv', line: 11, message: expect.stringMatching(/^LOCAL_KEY is not set/) }),
    ]);
    expect((await loadAgent(dir, BUILTIN_AUGMENTS, { processEnv: { LOCAL_KEY: 'k' } })).diagnostics).toEqual([]);
    expect((await loadAgent(agentFolder(), BUILTIN_AUGMENTS, { processEnv: { AUGGY_API_KEY: 'k' } })).diagnostics).toEqual([]);
  });

  it('needs no key for ollama, scripted, or an openai-compatible server without apiKeyEnv', async () => {
    for (const engine of ['provider: ollama\n  model: llama3.2', 'provider: openai-compatible\n  model: m\n  baseURL: http://127.0.0.1:8000/v1']) {
      const dir = agentFolder({ 'agent.yaml': VALID_YAML.replace('provider: openai\n  model: gpt-5.4-mini', engine) });
      expect((await loadAgent(dir, BUILTIN_AUGMENTS, { processEnv: {} })).diagnostics).toEqual([]);
    }
  });

  it('warns that an openai-compatible engine without baseURL needs one at run time', async () => {
    const dir = agentFolder({ 'agent.yaml': VALID_YAML.replace('provider: openai\n', 'provider: openai-compatible\n') });
    const result = await loadAgent(dir, BUILTIN_AUGMENTS, { processEnv: {} });
    expect(result.agent).toBeDefined();
    expect(result.diagnostics).toEqual([
      expect.objectContaining({ severity: 'warning', line: 7, field: 'engine', message: expect.stringMatching(/--base-url/) }),
    ]);
  });

  it('treats an empty augment.yaml as an error, unlike a missing one', async () => {
    const empty = await loadAgent(agentFolder({ 'augments/turnControl/augment.yaml': '' }), BUILTIN_AUGMENTS, { processEnv: withKey });
    expect(empty.agent).toBeUndefined();
    expect(errors(empty.diagnostics)).toEqual([
      expect.objectContaining({
        file: 'augments/turnControl/augment.yaml',
        line: 1,
        message: expect.stringMatching(/^must be a mapping with type: turnControl/),
      }),
    ]);
  });

  it('warns about a listed augment without its folder and still runs it with default settings', async () => {
    const missingDir = join(tempDir('auggy-load-'), 'agent');
    writeFiles(missingDir, { 'agent.yaml': VALID_YAML, 'identity.md': 'x\n', 'skills/turnControl/SKILL.md': SKILL });
    const missing = await loadAgent(missingDir, BUILTIN_AUGMENTS, { processEnv: withKey });
    expect(missing.diagnostics.map(formatDiagnostic)).toEqual([
      'agent.yaml:13:5 warning augments[0]: augments/turnControl/augment.yaml is missing, so turnControl runs with its default settings; add the file with the line: type: turnControl',
    ]);
    expect(missing.agent?.augments).toEqual([{ id: 'turnControl', type: 'turnControl', config: {}, file: undefined }]);
  });

  it('warns about a skill folder without SKILL.md and a SKILL.md without usable front matter, leaving them out', async () => {
    const dir = agentFolder({
      'skills/empty/notes.txt': 'x',
      'skills/plain/SKILL.md': '# No front matter\n',
      'skills/blank/SKILL.md': '---\nname: blank\ndescription: "  "\n---\nBody\n',
      'skills/broken/SKILL.md': '---\nname: [broken\n---\n',
      'skills/good/SKILL.md': '---\nname: good\ndescription: A good skill.\n---\n\nUse it well.\n',
    });
    const result = await loadAgent(dir, BUILTIN_AUGMENTS, { processEnv: withKey });
    expect(result.agent?.skills.map((skill) => skill.id)).toEqual(['good', 'turnControl']);
    expect(result.agent?.skills[0].body).toBe('Use it well.\n');
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([
      'skills/blank/SKILL.md:3:1 warning description: must not be empty',
      expect.stringMatching(/^skills\/broken\/SKILL\.md:2:\d+ warning .*fix the YAML syntax there$/),
      'skills/empty warning has no SKILL.md, so the skill is left out; add skills/empty/SKILL.md or remove the folder',
      'skills/plain/SKILL.md:1 warning has no front matter, so the skill is left out; start the file with ---, then name: and description: lines, then ---',
    ]);
  });

  it("leaves out a built-in augment's skill when agent.yaml does not list that augment", async () => {
    const dir = agentFolder({ 'agent.yaml': VALID_YAML.replace('augments:\n  - turnControl\n', 'augments: []\n') });
    const result = await loadAgent(dir, BUILTIN_AUGMENTS, { processEnv: withKey });
    expect(result.agent?.skills).toEqual([]);
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([
      'skills/turnControl warning is guidance for the turnControl augment, which agent.yaml does not list, so it is left out; add turnControl under augments or remove the folder',
    ]);
  });
});

describe('loadAgent on a folder written by another auggy release', () => {
  const WIDER_YAML = `# Agent configuration
id: aug1_0b7e9c1d-2f3a-4b5c-8d6e-7f8091a2b3c4
name: wide
displayName: Wide
purpose: Everything at once.
identity: ./identity.md
version: 3
engine:
  provider: anthropic
  model: claude-sonnet-4-5
  temperature: 0.2
  maxTokens: 4096
settings:
  maxInferenceLoops: 25
  streaming: true
  theme: dark
memory:
  backend: sqlite
augments:
  - turnControl
  - fileMemory
  - webFetch
  - research
`;

  it('loads, keeps unknown keys, and warns once per unsupported augment (with its skill left out)', async () => {
    const dir = agentFolder({
      'agent.yaml': WIDER_YAML,
      'augments/fileMemory/augment.yaml': 'type: fileMemory\nconfig:\n  path: ./memory\n',
      'skills/fileMemory/SKILL.md': '---\nname: fileMemory\ndescription: Remember things in files.\n---\nUse memory_write.\n',
      'augments/research/augment.yaml': 'type: webFetch\nconfig:\n  maxPages: 3\n',
      'augments/turnControl/augment.yaml': 'type: turnControl\nconfig:\n  requestInputDescription: Ask the person one question.\n  legacyFlag: true\n',
    });
    const result = await loadAgent(dir, BUILTIN_AUGMENTS, { processEnv: { ANTHROPIC_API_KEY: 'k' } });
    expect(errors(result.diagnostics)).toEqual([]);
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([
      `agent.yaml:21:5 warning augments[1]: fileMemory is not supported here, ignored, and so is skills/fileMemory; this auggy implements ${SUPPORTED}`,
      `agent.yaml:22:5 warning augments[2]: webFetch is not supported here, ignored; this auggy implements ${SUPPORTED}`,
      `agent.yaml:23:5 warning augments[3]: research (type webFetch) is not supported here, ignored; this auggy implements ${SUPPORTED}`,
    ]);
    const agent = result.agent!;
    expect(agent.augments.map((augment) => augment.id)).toEqual(['turnControl']);
    expect(agent.augments[0].config).toEqual({ requestInputDescription: 'Ask the person one question.', legacyFlag: true });
    expect(agent.skills.map((skill) => skill.id)).toEqual(['turnControl']);
    expect(agent.yaml).toMatchObject({ version: 3, memory: { backend: 'sqlite' }, settings: { maxInferenceLoops: 25, theme: 'dark' } });
    expect(agent.engine).toMatchObject({ provider: 'anthropic', temperature: 0.2 });
  });

  it('suggests the augment a misspelt name was meant to be', async () => {
    const dir = makeAgentFolder({ augments: ['turnControl', 'userAks'] });
    const loaded = await loadAgent(dir, BUILTIN_AUGMENTS);
    const warning = loaded.diagnostics.find((d) => d.field === 'augments[1]');
    expect(warning?.message).toMatch(/^userAks is not supported here, ignored \(did you mean userAsk\?\); this auggy implements /);
  });
});
