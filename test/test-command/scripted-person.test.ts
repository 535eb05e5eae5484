import { describe, expect, it } from 'vitest';
import { copyExample } from '../helpers/agent-fixture.js';
import { failuresByType, reportNamed, runScenarios, scenario } from './harness.js';

describe('a turn that scripts the person', () => {
  it('answers the questionnaire field by field, and the turn carries on with the answers', async () => {
    const suite = await runScenarios(copyExample('demo'), {
      plan: scenario(
        'plan answered',
        `    - content: "plan the release"
      person: { answers: { environment: production, replicas: 3, regions: [eu-west, us-east] } }
      assertions:
        - { type: asks, params: { fields: [environment, replicas, regions] } }
        - { type: tool_result_includes, params: { tool: ask_user, patterns: ['"answers":{"environment":"production","replicas":3,"regions":["eu-west","us-east"]}'] } }`,
      ),
    });
    const report = reportNamed(suite, 'plan answered');
    expect([...failuresByType(report).values()]).toEqual([]);
    expect(report.runs[0].turns[0].notes).toEqual([]);
  });

  it('takes the default for a field it has no answer for, declines the rest, and says so', async () => {
    const suite = await runScenarios(copyExample('demo'), {
      partly: scenario(
        'plan partly answered',
        `    - content: "plan the release"
      person: { answers: { environment: staging } }
      assertions:
        - { type: tool_result_includes, params: { tool: ask_user, patterns: ['"status":"answered"'] } }`,
      ),
    });
    const report = reportNamed(suite, 'plan partly answered');
    expect(failuresByType(report).get('tool_result_includes')?.actual).toContain('"status\\":\\"no-answer\\",\\"reason\\":\\"declined\\"');
    expect(report.runs[0].turns[0].notes).toEqual([
      'the scripted person had no answer for field replicas, so it took the default',
      'the scripted person had no answer for field regions, so it declined it',
    ]);
  });

  it('away (and no person at all) answers nothing, at once', async () => {
    const suite = await runScenarios(copyExample('demo'), {
      away: scenario(
        'nobody there',
        `    - content: "plan the release"
      person: away
      assertions:
        - { type: tool_result_includes, params: { tool: ask_user, patterns: ['"reason":"away"'] } }
    - content: "plan the release"
      assertions:
        - { type: tool_result_includes, params: { tool: ask_user, patterns: ['"reason":"away"'] } }`,
      ),
    });
    expect(reportNamed(suite, 'nobody there').passed).toBe(true);
  });
});
