import { describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../helpers/agent-fixture.js';
import { auggy } from '../helpers/auggy-cli.js';

/** examples/assertions-test as a folder: its prompt and tools as a pack, its mock responses as the engine's script. */
function fixture(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'auggy-pk-mock-')), 'mock-replay');
  cpSync(join(REPO_ROOT, 'test', 'fixtures', 'promptkit', 'mock-replay'), dir, { recursive: true });
  return dir;
}

interface Report {
  summary: { passed: number; failed: number };
  scenarios: { name: string; passed: boolean; runs: { turns: { assertions: { status: string }[] }[] }[] }[];
}

describe("PromptKit's mock responses replayed by auggy test", () => {
  it("passes PromptKit's own scenarios on their mock responses: text by turn, tool calls, and the reply after the tools' results", async () => {
    const run = await auggy(['test', fixture(), '--reporter', 'json']);
    expect(run.exitCode, String(run.stderr)).toBe(0);
    const report = JSON.parse(String(run.stdout)) as Report;
    expect(report.summary).toMatchObject({ passed: 2, failed: 0 });
    const statuses = report.scenarios.flatMap((s) => s.runs.flatMap((r) => r.turns.flatMap((t) => t.assertions.map((a) => a.status))));
    expect(statuses.every((status) => status === 'passed')).toBe(true);
  });

  it('a scenario the mock config does not name gets its default reply, and its checks then fail as PromptKit would', async () => {
    const dir = fixture();
    writeFileSync(
      join(dir, 'tests', 'unknown.scenario.yaml'),
      'apiVersion: promptkit.altairalabs.ai/v1alpha1\nkind: Scenario\nmetadata:\n  name: unknown\nspec:\n  id: unknown\n  task_type: assistant\n  turns:\n    - role: user\n      content: "Hi"\n      assertions:\n        - type: content_includes\n          params:\n            patterns: ["ready to help with your questions"]\n        - type: content_includes\n          params:\n            patterns: ["Paris"]\n',
    );
    const run = await auggy(['test', dir, '--reporter', 'json', '--filter', 'unknown']);
    const report = JSON.parse(String(run.stdout)) as Report;
    expect(report.summary).toMatchObject({ passed: 0, failed: 1 });
    const statuses = report.scenarios[0].runs[0].turns[0].assertions.map((a) => a.status);
    expect(statuses).toEqual(['passed', 'failed']);
  });
});
