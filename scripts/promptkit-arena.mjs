// Turns each PromptKit Arena config (config*.arena.yaml) under a folder into auggy agent folders and
// runs its scenarios with the built auggy, offline: the scripted provider plays the example's own
// mock responses (PromptKit's mock config), its prompt configs become a pack's prompts, its
// tools the pack's tools, and its self_play personas and self-play mock configs are carried in.
// Used by promptkit-corpus.mjs --run; it fetches nothing.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { parse } from 'yaml';

const readYaml = (path) => {
  try {
    return parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
};

/** The mock config the arena's mock provider names, else the example's mock-responses.yaml, else none. */
function mockConfigOf(arenaDir, spec) {
  // A provider that plays the self-play user is not the agent's.
  const personas = new Set((spec.self_play?.roles ?? []).map((role) => role.provider));
  for (const { file } of spec.providers ?? []) {
    if (!file) continue;
    const provider = readYaml(join(arenaDir, file));
    if (personas.has(provider?.spec?.id)) continue;
    const named = provider?.spec?.type === 'mock' ? provider.spec.additional_config?.mock_config : undefined;
    if (!named) continue;
    for (const base of [arenaDir, dirname(join(arenaDir, file))]) if (existsSync(join(base, named))) return resolve(base, named);
  }
  for (const name of ['mock-responses.yaml', 'mock-config.yaml']) if (existsSync(join(arenaDir, name))) return resolve(arenaDir, name);
  return undefined;
}

function packTool(spec) {
  const tool = { name: spec.name, description: spec.description ?? spec.name, parameters: spec.input_schema ?? { type: 'object' } };
  for (const key of ['mode', 'mock_result', 'mock_template', 'http', 'timeout_ms']) if (spec[key] !== undefined) tool[key] = spec[key];
  return tool;
}

/** The provider file an arena lists under this id (spec.id, else metadata.name), read. */
function providerOf(arenaDir, spec, id) {
  for (const { file } of spec.providers ?? []) {
    if (!file) continue;
    const provider = readYaml(join(arenaDir, file));
    if ((provider?.spec?.id ?? provider?.metadata?.name) === id) return { provider, dir: dirname(join(arenaDir, file)) };
  }
  return undefined;
}

/**
 * The arena's self_play block carried into the folder: its persona files in personas/ (where
 * auggy test looks for them), and for each role played by a mock provider, that provider's mock
 * config and a self-play.yaml line naming it. A role played by a real provider gets no line: the
 * agent's mock config plays it offline, as PromptKit's mock provider would.
 */
function writeSelfPlay(dir, arenaDir, spec) {
  const selfPlay = spec.self_play;
  if (!selfPlay) return;
  mkdirSync(join(dir, 'personas'), { recursive: true });
  for (const { file } of selfPlay.personas ?? []) {
    if (!file || !existsSync(join(arenaDir, file))) continue;
    const name = basename(file).replace(/(\.persona)?\.(ya?ml|json)$/i, '');
    const ext = /\.json$/i.test(file) ? 'json' : 'yaml';
    cpSync(join(arenaDir, file), join(dir, 'personas', `${name}.persona.${ext}`));
  }
  const roles = [];
  for (const role of selfPlay.roles ?? []) {
    const found = providerOf(arenaDir, spec, role.provider);
    const named = found?.provider?.spec?.type === 'mock' ? found.provider.spec.additional_config?.mock_config : undefined;
    const source = named && [arenaDir, found.dir].map((base) => join(base, named)).find((path) => existsSync(path));
    if (!source) continue;
    const script = `self-play-${role.id}.yaml`;
    cpSync(source, join(dir, script));
    roles.push(`  - id: ${JSON.stringify(role.id)}\n    script: ./${script}\n`);
  }
  if (roles.length > 0) writeFileSync(join(dir, 'self-play.yaml'), `roles:\n${roles.join('')}`);
}

/** One agent folder per arena: its prompt configs as the pack's prompts, the chosen one set per scenario by config.prompt. */
function writeAgent(root, name, arenaDir, spec, task) {
  const dir = join(root, name);
  mkdirSync(join(dir, 'augments', 'workflow'), { recursive: true });
  const prompts = {};
  for (const { id, file } of spec.prompt_configs ?? []) {
    const config = readYaml(join(arenaDir, file))?.spec;
    if (!config?.system_template) continue;
    const key = config.task_type ?? id;
    prompts[key] = {
      id: key,
      system_template: config.system_template,
      ...(config.variables ? { variables: config.variables } : {}),
      ...(config.allowed_tools ? { tools: config.allowed_tools } : {}),
      ...(config.parameters ? { parameters: config.parameters } : {}),
      // packc carries a prompt config's validators into the pack: they run as guardrails.
      ...(config.validators ? { validators: config.validators } : {}),
    };
    if (id !== key) prompts[id] = prompts[key];
  }
  const tools = {};
  for (const { file } of spec.tools ?? []) {
    const tool = readYaml(join(arenaDir, file));
    const toolSpec = tool?.spec && { name: tool.spec.name ?? tool.metadata?.name, ...tool.spec };
    if (toolSpec?.name) tools[toolSpec.name] = packTool(toolSpec);
  }
  const mock = mockConfigOf(arenaDir, spec);
  // auggy reads only files inside the agent folder: the mock config is copied in.
  writeFileSync(join(dir, 'mock-responses.yaml'), mock ? readFileSync(mock) : 'defaultResponse: "Mock response for provider mock model mock"\n');
  const script = './mock-responses.yaml';
  writeFileSync(join(dir, 'arena.pack.json'), JSON.stringify({ id: name, name, prompts, tools }, null, 2));
  writeSelfPlay(dir, arenaDir, spec);
  writeFileSync(join(dir, 'identity.md'), '');
  writeFileSync(
    join(dir, 'agent.yaml'),
    `name: ${name}\nengine:\n  provider: scripted\n  model: mock\n  script: ${JSON.stringify(script)}\nsettings:\n  maxInferenceLoops: 10\naugments:\n  - workflow\n`,
  );
  writeFileSync(
    join(dir, 'augments', 'workflow', 'augment.yaml'),
    `type: workflow\nconfig:\n  pack: ./arena.pack.json\n${task ? `  prompt: ${JSON.stringify(task)}\n` : ''}`,
  );
  return { dir, prompts: Object.keys(prompts), mocked: mock !== undefined };
}

/** Runs every scenario an arena config lists; returns one outcome per scenario file. */
export function runArena(auggy, arenaPath, index) {
  const arenaDir = dirname(arenaPath);
  const spec = readYaml(arenaPath)?.spec;
  if (!spec) return [];
  const root = mkdtempSync(join(tmpdir(), 'auggy-arena-'));
  const outcomes = [];
  try {
    const byTask = new Map();
    for (const { file } of spec.scenarios ?? []) {
      const path = resolve(arenaDir, file);
      const task = readYaml(path)?.spec?.task_type;
      byTask.set(task, [...(byTask.get(task) ?? []), path]);
    }
    let n = 0;
    for (const [task, paths] of byTask) {
      const agent = writeAgent(
        root,
        `arena-${index}-${n++}`,
        arenaDir,
        spec,
        task && spec.prompt_configs?.some((p) => p.id === task || readYaml(join(arenaDir, p.file))?.spec?.task_type === task) ? task : undefined,
      );
      let stdout = '';
      try {
        stdout = execFileSync(process.execPath, [auggy, 'test', agent.dir, ...paths, '--reporter', 'json'], {
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'pipe'],
        });
      } catch (error) {
        stdout = String(error.stdout ?? '');
        if (!stdout.trim().startsWith('{')) {
          for (const path of paths)
            outcomes.push({
              path,
              status: 'error',
              why: String(error.stderr ?? error.message)
                .trim()
                .split('\n')
                .slice(-2)
                .join(' '),
            });
          continue;
        }
      }
      const report = JSON.parse(stdout);
      for (const scenario of report.scenarios) {
        const assertions = scenario.runs.flatMap((run) => [...run.turns.flatMap((turn) => turn.assertions), ...run.conversationAssertions]);
        const skipped = assertions.filter((a) => a.status === 'skipped').length;
        const turns = scenario.runs.flatMap((run) => run.turns);
        // Self-play: the persona's messages that were played, and self-play turns not played (their notes say why).
        const personaMessages = turns.filter((turn) => turn.round !== undefined).length;
        const notPlayed = turns.flatMap((turn) => turn.notes.filter((note) => note.startsWith('its self-play messages were not played')));
        const players = [...new Set(turns.flatMap((turn) => turn.notes.filter((note) => / was played by /.test(note))))];
        outcomes.push({
          personaMessages,
          players,
          notPlayed,
          path: resolve(scenario.file),
          status: scenario.passed ? 'passed' : 'failed',
          skipped,
          mocked: agent.mocked,
          failures: scenario.failures,
        });
      }
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  return outcomes;
}
