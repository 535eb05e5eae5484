import { readdirSync } from 'node:fs';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { AUGGY_BIN, REPO_ROOT, makeAgentFolder } from '../helpers/agent-fixture.js';
import { tempDir, writeFiles } from '../helpers/temp-dir.js';
import { scenario } from './harness.js';

/** The built binary with a temp folder of its own as TMPDIR, so the throwaway session can be watched for. */
function auggyTest(args: string[], tmp = tempDir('auggy-tmp-')) {
  const env = { OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', AUGGY_MODEL: '', AUGGY_BASE_URL: '', AUGGY_API_KEY: '', NO_COLOR: '1', TMPDIR: tmp };
  return execa(process.execPath, [AUGGY_BIN, 'test', ...args], { reject: false, env, extendEnv: true, cwd: REPO_ROOT });
}

/** Matching it against any reply that does not end in Z takes longer than the universe has left. */
const BACKTRACKING = '^(.+)+Z$';

function echoAgent(turns: string): string {
  const dir = makeAgentFolder({
    engine: 'engine:\n  provider: scripted\n  model: echo\n  script: ./script.yaml\n',
    files: { 'script.yaml': 'rules:\n  - steps:\n      - text: "a reply of some forty characters or so, and that is all"\n' },
  });
  writeFiles(dir, { 'tests/faults.scenario.yaml': scenario('faults', turns) });
  return dir;
}

/** One line a turn, so 10,000 of them stay under the 1 MiB a scenario file may be. */
function turnsWith(count: number, assertion?: string): string {
  const turn = `    - { content: hello${assertion ? `, assertions: [${assertion}]` : ''} }`;
  return Array.from({ length: count }, () => turn).join('\n');
}

const backtrackingCheck = `{ type: content_matches, params: { pattern: "${BACKTRACKING}" } }`;

async function untilStarted(tmp: string): Promise<void> {
  // The throwaway session's folder appears once the first scenario has started.
  while (readdirSync(tmp).length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
}

describe('auggy test faults', () => {
  it('a content_matches pattern with catastrophic backtracking fails its check, naming the pattern, and the run goes on', async () => {
    const dir = echoAgent(`${turnsWith(1, backtrackingCheck)}\n${turnsWith(1, '{ type: content_includes, params: { patterns: [forty] } }')}`);
    const run = await auggyTest([dir]);
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toContain(
      `it failed: the pattern /${BACKTRACKING}/ did not finish matching within 1 s: it backtracks without end on this text (nested repeats such as (a+)+ or (.*)*); rewrite it without them`,
    );
    expect(run.stdout).toMatch(/^scenarios: 0 passed, 1 failed/m);
    expect(run.stderr).toBe('');
  });

  it('SIGTERM stops a 10,000-turn scenario whose every turn checks a backtracking pattern: exit 143 and one line', async () => {
    const tmp = tempDir('auggy-tmp-');
    const child = auggyTest([echoAgent(turnsWith(10_000, backtrackingCheck))], tmp);
    await untilStarted(tmp);
    child.kill('SIGTERM');
    const run = await child;
    expect(run.exitCode).toBe(143);
    expect(run.stderr).toBe('auggy: canceled; the scenarios not finished are not reported');
    expect(run.stdout).toMatch(/^scenarios: 0 passed, 0 failed, 1 not run \(canceled\)/m);
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('Ctrl+C (SIGINT) stops a 10,000-turn scenario: exit 130 and one line', async () => {
    const tmp = tempDir('auggy-tmp-');
    const child = auggyTest([echoAgent(turnsWith(10_000))], tmp);
    await untilStarted(tmp);
    child.kill('SIGINT');
    const run = await child;
    expect(run.exitCode).toBe(130);
    expect(run.stderr).toBe('auggy: canceled; the scenarios not finished are not reported');
    expect(readdirSync(tmp)).toEqual([]);
  });
});
