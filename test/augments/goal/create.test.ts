import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../../helpers/agent-fixture.js';
import { auggy } from '../../helpers/auggy-cli.js';

interface Report {
  scenarios: { name: string; passed: boolean; runs: { turns: { assertions: { type: string; status: string; actual: string }[] }[] }[] }[];
}

describe('auggy create --augment goal', () => {
  it("writes the goal's skill and a goal scenario that auggy test passes offline, goal_met and goal_turns included", async () => {
    const parent = mkdtempSync(join(tmpdir(), 'auggy-create-goal-'));
    const created = await auggy(['create', 'keeper', '--yes', '--augment', 'goal', '--provider', 'scripted', '--dir', parent]);
    expect(created.exitCode).toBe(0);
    const dir = join(parent, 'keeper');
    expect(readFileSync(join(dir, 'agent.yaml'), 'utf8')).toContain('augments:\n  - turnControl\n  - goal\n');
    expect(readFileSync(join(dir, 'augments', 'goal', 'augment.yaml'), 'utf8')).toBe('type: goal\n');
    expect(readFileSync(join(dir, 'skills', 'goal', 'SKILL.md'), 'utf8')).toBe(
      readFileSync(join(REPO_ROOT, 'templates', 'skills', 'goal', 'SKILL.md'), 'utf8'),
    );

    const validated = await auggy(['validate', dir]);
    expect(validated.stdout).toContain('no problems found');
    expect(validated.exitCode).toBe(0);

    const tested = await auggy(['test', dir, '--reporter', 'json']);
    expect(tested.exitCode).toBe(0);
    const report = JSON.parse(tested.stdout) as Report;
    const goal = report.scenarios.find((scenario) => scenario.name === 'works toward a goal and asks when it must');
    expect(goal?.passed).toBe(true);
    const checks = goal?.runs[0].turns.flatMap((turn) => turn.assertions) ?? [];
    expect(checks.filter((check) => check.type.startsWith('goal_')).map(({ type, status, actual }) => ({ type, status, actual }))).toEqual([
      { type: 'goal_met', status: 'passed', actual: 'waiting after 0 turn(s)' },
      { type: 'goal_met', status: 'passed', actual: 'achieved after 1 turn(s): "The transcript shows the service built, pushed and rolled out."' },
      { type: 'goal_turns', status: 'passed', actual: '1 turn(s) evaluated' },
    ]);
  });
});
