import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterEach, describe, expect, it } from 'vitest';
import { AUGGY_BIN, REPO_ROOT, copyExample, makeAgentFolder } from '../helpers/agent-fixture.js';
import { startChatServer, type ChatServer } from '../helpers/chat-server.js';
import { tempDir, treeSnapshot, writeFiles } from '../helpers/temp-dir.js';
import { scenario } from './harness.js';

/** The built binary with a temp folder of its own as TMPDIR, so the throwaway sessions can be watched. */
function auggyTest(args: string[], tmp = tempDir('auggy-tmp-')) {
  const env = { OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', AUGGY_MODEL: '', AUGGY_BASE_URL: '', AUGGY_API_KEY: '', NO_COLOR: '1', TMPDIR: tmp };
  return execa('node', [AUGGY_BIN, 'test', ...args], { reject: false, env, extendEnv: true, cwd: REPO_ROOT });
}

const servers: ChatServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const FLIP_SCRIPT = `rules:
  - match: "flip"
    replies:
      - text: "heads"
      - text: "tails"
  - match: ".*"
    steps:
      - text: "Say flip."
`;

function flipAgent(): string {
  const dir = makeAgentFolder({ engine: 'engine:\n  provider: scripted\n  model: flip\n  script: ./script.yaml\n', files: { 'script.yaml': FLIP_SCRIPT } });
  writeFiles(dir, {
    'tests/flip.scenario.yaml': scenario(
      'coin lands heads',
      `    - role: user\n      content: "flip a coin"\n      assertions:\n        - { type: content_includes, params: { patterns: [heads] } }`,
    ),
  });
  return dir;
}

describe('auggy test runs the bundled examples through the binary', () => {
  it.each(['demo', 'support'])('examples/%s: every scenario passes, exit 0, and nothing is written in the folder or left in the temp dir', async (name) => {
    const folder = join(REPO_ROOT, 'examples', name);
    const before = treeSnapshot(folder);
    const tmp = tempDir('auggy-tmp-');
    const run = await auggyTest([`examples/${name}`], tmp);
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(0);
    const files = readdirSync(join(folder, 'tests')).filter((file) => file.endsWith('.scenario.yaml'));
    expect(run.stdout.split('\n').filter((line) => line.startsWith('PASS  '))).toHaveLength(files.length);
    expect(run.stdout).toMatch(new RegExp(`^scenarios: ${files.length} passed, 0 failed \\(${files.length} total, \\d+\\.\\ds\\)$`, 'm'));
    expect(treeSnapshot(folder)).toEqual(before);
    expect(readdirSync(tmp)).toEqual([]);
  });

  it("leaves the folder's own sessions exactly as they were", async () => {
    const dir = copyExample('demo');
    const first = await execa('node', [AUGGY_BIN, 'run', dir, '--print', 'deploy the api'], { reject: false, env: { NO_COLOR: '1' } });
    expect(first.exitCode).toBe(3);
    const before = treeSnapshot(dir);
    expect(Object.keys(before).filter((path) => path.startsWith('.auggy/sessions/') && path.endsWith('events.jsonl'))).toHaveLength(1);
    const run = await auggyTest([dir]);
    expect(run.exitCode).toBe(0);
    expect(treeSnapshot(dir)).toEqual(before);
  });

  it('auggy create writes tests/example.scenario.yaml, which passes on the scripted model', async () => {
    const parent = tempDir('auggy-create-');
    const created = await execa('node', [AUGGY_BIN, 'create', 'fresh', '--provider', 'scripted', '--yes'], { cwd: parent, reject: false });
    expect(created.exitCode).toBe(0);
    const run = await auggyTest([join(parent, 'fresh')]);
    expect(run.stdout).toMatch(/^PASS {2}asks which service before deploying {2}\(.*example\.scenario\.yaml, 2 turns, /m);
    expect(run.exitCode).toBe(0);
  });

  it('runs the PromptKit-shaped echo-test file as it is, against an agent that echoes from its board', async () => {
    const dir = join(REPO_ROOT, 'test/test-command/fixtures/promptkit-echo');
    const run = await auggyTest([dir, join(dir, 'arena/scenarios/echo-test.scenario.yaml')]);
    expect(run.stdout).toMatch(/^PASS {2}echo-test {2}\(/m);
    expect(run.exitCode).toBe(0);
  });
});

describe('auggy test reports failures and bad files with their exit codes', () => {
  it('a failing assertion: exit 1, the FAIL line, the file:line and the expected and actual values', async () => {
    const dir = copyExample('demo');
    writeFiles(dir, {
      'tests/wrong.scenario.yaml': scenario(
        'wrong guess',
        `    - role: user\n      content: "deploy the api"\n      assertions:\n        - type: turn_status\n          params: { status: completed }`,
      ),
    });
    const run = await auggyTest([dir, join(dir, 'tests/wrong.scenario.yaml')]);
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toContain('FAIL  wrong guess  (');
    expect(run.stdout).toMatch(
      /turn 1 "deploy the api" · turn_status · .*wrong\.scenario\.yaml:13:11\n {8}expected: the turn to end completed\n {8}actual: {3}input-required\n/,
    );
    expect(run.stdout).toMatch(/^scenarios: 0 passed, 1 failed \(1 total, /m);
  });

  it('a bad scenario file: exit 2 with file:line, and no model is called', async () => {
    const server = await startChatServer([{ text: 'never asked' }]);
    servers.push(server);
    const dir = makeAgentFolder();
    writeFiles(dir, {
      'tests/good.scenario.yaml': scenario('fine', '    - content: hi'),
      'tests/bad.scenario.yaml': 'kind: Scenario\nspec:\n  turns:\n    - content: hi\n      assertions:\n        - type: content_includez\n',
    });
    const run = await auggyTest([dir, '--model', 'openai-compatible:test', '--base-url', server.url]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain(
      'bad.scenario.yaml:6:11 error spec.turns[0].assertions[0].type: "content_includez" is not an assertion type auggy runs; did you mean content_includes?',
    );
    expect(run.stderr).toContain('auggy: 1 scenario file has errors; nothing was run');
    expect(run.stdout).toBe('');
    expect(server.requests).toHaveLength(0);
  });

  it('usage problems are exit 2 with one sentence: no agent folder, no scenarios, a filter that matches none', async () => {
    const empty = tempDir('auggy-empty-');
    expect((await auggyTest([empty])).stderr).toMatch(/has no agent\.yaml; pass an agent folder/);
    const bare = makeAgentFolder();
    const none = await auggyTest([bare]);
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toMatch(/^auggy: no scenarios: .*tests has no \*\.scenario\.yaml files/);
    const filtered = await auggyTest(['examples/demo', '--filter', 'nothing like this']);
    expect(filtered.exitCode).toBe(2);
    expect(filtered.stderr).toContain('no scenario\'s name contains "nothing like this"; the scenarios are: board lines from both sides, ');
    expect((await auggyTest(['examples/demo', '--repeat', '0'])).stderr).toContain('--repeat takes a whole number from 1 to 1000, not "0"');
    expect((await auggyTest(['examples/demo', '--min-pass-rate', '80'])).stderr).toContain('--min-pass-rate takes a share of runs from 0 to 1');
  });

  it('--filter runs only the scenarios whose name contains it', async () => {
    const run = await auggyTest(['examples/demo', '--filter', 'RELEASE']);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(/^PASS {2}release plan interviews the person/m);
    expect(run.stdout).toMatch(/^scenarios: 1 passed, 0 failed \(1 total/m);
  });

  it('takes a scenario file in place of dir, and runs it against the agent folder that holds it', async () => {
    const run = await auggyTest(['examples/demo/tests/board.scenario.yaml']);
    expect(run.stdout).toMatch(/^PASS {2}board lines from both sides {2}\(examples\/demo\/tests\/board\.scenario\.yaml, 1 turn, /m);
    expect(run.stdout).toMatch(/^scenarios: 1 passed, 0 failed \(1 total/m);
    expect(run.exitCode).toBe(0);
  });

  it("runs on --model and --base-url instead of the agent's engine", async () => {
    const server = await startChatServer(() => ({ text: 'Hello from the loopback model.' }));
    servers.push(server);
    const dir = makeAgentFolder();
    writeFiles(dir, {
      'tests/hello.scenario.yaml': scenario(
        'greets',
        `    - content: hi\n      assertions:\n        - { type: content_includes, params: { patterns: [loopback] } }\n        - { type: turn_status, params: { status: completed } }`,
      ),
    });
    const run = await auggyTest([dir, '--model', 'openai-compatible:test', '--base-url', server.url]);
    expect(run.stdout).toContain('PASS  greets');
    expect(run.exitCode).toBe(0);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0].body.messages.at(-1)).toMatchObject({ role: 'user', content: 'hi' });
  });

  it('SIGTERM (a CI job that timed out) stops the run mid-turn, removes its session and exits 143', async () => {
    const dir = makeAgentFolder({
      engine: 'engine:\n  provider: scripted\n  model: slow\n  script: ./script.yaml\n',
      files: { 'script.yaml': 'chunkDelayMs: 1000\nrules:\n  - steps:\n      - text: "a slow reply that takes a long while"\n' },
    });
    writeFiles(dir, { 'tests/slow.scenario.yaml': scenario('slow', '    - content: hi') });
    const tmp = tempDir('auggy-tmp-');
    const child = auggyTest([dir], tmp);
    // The throwaway session's folder appears once the scenario has started.
    while (readdirSync(tmp).length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    child.kill('SIGTERM');
    const run = await child;
    expect(run.exitCode).toBe(143);
    expect(run.stderr).toContain('auggy: canceled; the scenarios not finished are not reported');
    expect(run.stdout).toMatch(/^scenarios: 0 passed, 0 failed, 1 not run \(canceled\) \(1 total, /m);
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('prints no progress line when stderr is not a terminal', async () => {
    const run = await auggyTest(['examples/support']);
    expect(run.stderr).toBe('');
    expect(run.stdout).not.toContain('\u001b');
    expect(run.stdout).not.toContain('scenario 1 of');
  });
});

describe('reporters', () => {
  it('--reporter junit --output writes well-formed JUnit: one testcase per scenario, one failure per failed assertion, escaped', async () => {
    const dir = copyExample('demo');
    writeFiles(dir, {
      'tests/bad.scenario.yaml': scenario(
        `'quotes "&" <tags> & more'`,
        `    - role: user\n      content: "deploy the api"\n      assertions:\n        - { type: turn_status, params: { status: completed } }\n        - { type: content_includes, params: { patterns: ["<b>&amp;</b>"] } }\n        - { type: asks, params: { pattern: "api-west" } }`,
      ),
    });
    const out = join(tempDir('auggy-report-'), 'reports', 'nested', 'auggy.xml');
    const run = await auggyTest([dir, '--reporter', 'junit', '--output', out]);
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toMatch(/^scenarios: 3 passed, 1 failed \(4 total/m);
    const xml = readFileSync(out, 'utf8');
    expect(XMLValidator.validate(xml)).toBe(true);
    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => ['testcase', 'failure'].includes(name) }).parse(
      xml,
    ) as {
      testsuites: {
        tests: string;
        failures: string;
        testsuite: {
          name: string;
          tests: string;
          failures: string;
          testcase: { name: string; file: string; failure?: { message: string; type: string; '#text': string }[] }[];
        };
      };
    };
    expect(parsed.testsuites).toMatchObject({ tests: '4', failures: '1' });
    const suite = parsed.testsuites.testsuite;
    expect(suite).toMatchObject({ name: 'demo', tests: '4', failures: '1' });
    expect(suite.testcase).toHaveLength(4);
    const failed = suite.testcase.filter((testcase) => testcase.failure);
    expect(failed).toHaveLength(1);
    expect(failed[0].name).toBe('quotes "&" <tags> & more');
    expect(failed[0].file).toBe(join(dir, 'tests/bad.scenario.yaml'));
    expect(failed[0].failure?.map((failure) => failure.type)).toEqual(['turn_status', 'content_includes']);
    expect(failed[0].failure?.[1].message).toContain('expected the reply to include "<b>&amp;</b>"');
    expect(failed[0].failure?.[0]['#text']).toContain('expected: the turn to end completed\nactual:   input-required');
  });

  it('--reporter json prints the whole run as JSON on stdout, alone', async () => {
    const run = await auggyTest(['examples/support', '--reporter', 'json']);
    expect(run.exitCode).toBe(0);
    const report = JSON.parse(run.stdout) as {
      agent: string;
      summary: unknown;
      scenarios: { name: string; passed: boolean; runs: { turns: { status?: string; assertions: { status: string }[] }[] }[] }[];
    };
    expect(report.agent).toBe('support');
    expect(report.summary).toEqual({ scenarios: 2, passed: 2, failed: 0 });
    const verify = report.scenarios.find((entry) => entry.name === 'verifies the caller first');
    expect(verify?.runs[0].turns.map((turn) => turn.status)).toEqual(['input-required', undefined, 'completed']);
    expect(verify?.runs[0].turns.flatMap((turn) => turn.assertions.map((a) => a.status))).toEqual(Array(7).fill('passed'));
  });
});

describe('--repeat with a model whose replies alternate', () => {
  it('reports the pass rate and fails below --min-pass-rate (1 by default)', async () => {
    const run = await auggyTest([flipAgent(), '--repeat', '4']);
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toContain('FAIL  coin lands heads  (');
    expect(run.stdout).toContain('2/4 runs passed (50%, needs 100%)');
    expect(run.stdout).toMatch(
      /turn 1 "flip a coin" · content_includes · .* · failed in 2 of 4 runs\n {8}expected: the reply to include "heads"\n {8}actual: {3}"heads" missing from "tails"/,
    );
  });

  it('passes at or above --min-pass-rate, and fails at 0.8', async () => {
    const dir = flipAgent();
    const half = await auggyTest([dir, '--repeat', '4', '--min-pass-rate', '0.5']);
    expect(half.stdout).toContain('PASS  coin lands heads');
    expect(half.stdout).toContain('2/4 runs passed (50%, needs 50%)');
    expect(half.exitCode).toBe(0);
    const strict = await auggyTest([dir, '--repeat', '5', '--min-pass-rate', '0.8']);
    expect(strict.stdout).toContain('3/5 runs passed (60%, needs 80%)');
    expect(strict.exitCode).toBe(1);
  });

  it("uses a scenario's own trials when --repeat is not given, and a pass_threshold judges its assertion across runs", async () => {
    const dir = flipAgent();
    mkdirSync(join(dir, 'more'));
    writeFileSync(
      join(dir, 'more/trials.scenario.yaml'),
      scenario(
        'mostly heads',
        `    - content: "flip"\n      assertions:\n        - { type: content_includes, params: { patterns: [heads] }, pass_threshold: 0.5 }`,
        '  trials: 4',
      ),
    );
    const run = await auggyTest([dir, 'more']);
    expect(run.stdout).toContain('PASS  mostly heads');
    expect(run.stdout).toContain('4/4 runs passed');
    expect(run.exitCode).toBe(0);
  });
});
