import { describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { makeAgentFolder } from '../helpers/agent-fixture.js';
import { auggyTerminals, sendLine } from '../helpers/auggy-terminal.js';
import { tmuxAvailable } from '../helpers/tmux.js';

const terminals = auggyTerminals();

const SCRIPT = `rules:
  - match: "plan"
    steps:
      - toolCalls:
          - name: ask_user
            args:
              prompt: "Planning the **release**."
              fields:
                - { name: environment, question: "Which **environment**?", type: choice, options: [staging, production] }
                - { name: replicas, question: "How many replicas?", type: integer, default: 2 }
                - { name: regions, question: "Which regions?", type: list }
      - text: "The plan is noted."
  - match: "deploy"
    steps:
      - toolCalls:
          - name: request_input
            args: { prompt: "Deploy to **staging** first, or straight to production?" }
`;

/** An agent whose scripted model interviews the person for a release plan, or asks one question in markdown. */
function plannerAgent(): string {
  return makeAgentFolder({
    augments: ['turnControl', 'questions'],
    engine: 'engine:\n  provider: scripted\n  model: demo\n  script: ./script.yaml\n',
    files: { 'script.yaml': SCRIPT },
  });
}

const ANSWERS = 'environment: production · replicas: 2 · regions: eu-west, us-east';

describe.skipIf(!tmuxAvailable())('what the person answered, in the chat', { timeout: 180_000 }, () => {
  it('after a questionnaire one line shows the answers, and a resumed chat shows it again', async () => {
    const dir = plannerAgent();
    const t = await terminals.run(dir, [], { width: 120, height: 40 });
    await sendLine(t, 'plan the release');
    // The agent's markdown is drawn in the question as in a reply: no ** left.
    const asked = await t.waitForText('question 1 of 3');
    expect(asked).toContain('Planning the release.');
    expect(asked).toContain('Which environment?');
    // Only the question itself: the tool line above it shows the call's arguments as sent.
    expect(asked.slice(asked.indexOf('Planning the release.'))).not.toContain('**');
    await sendLine(t, '2');
    await t.waitForText('question 2 of 3');
    await sendLine(t, '-');
    await t.waitForText('question 3 of 3');
    await sendLine(t, 'eu-west, us-east');
    const screen = await t.waitForText('The plan is noted.');
    expect(screen).toContain(`› ${ANSWERS}`);
    await sendLine(t, '/exit');
    await t.waitForExit();

    const [sessionId] = readdirSync(join(dir, '.auggy', 'sessions'));
    const resumed = await terminals.run(dir, ['--session', sessionId], { width: 120, height: 40 });
    expect(await resumed.screen()).toContain(`› ${ANSWERS}`);
  });

  it("request_input's question is drawn as markdown, as a reply is", async () => {
    const t = await terminals.run(plannerAgent(), [], { width: 100, height: 30 });
    await sendLine(t, 'deploy it');
    const screen = await t.waitForText('Deploy to staging first, or straight to production?');
    expect(screen).not.toContain('**');
    const coloured = await t.screen({ escapes: true });
    const line = coloured.split('\n').find((row) => row.includes('staging')) ?? '';
    // "staging" alone is bold: an SGR 1 just before it.
    expect(line).toMatch(/\u001b\[[0-9;]*\b1m\s*staging/);
  });
});
