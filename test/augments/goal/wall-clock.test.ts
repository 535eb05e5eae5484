import { describe, expect, it } from 'vitest';
import { BUILTIN_AUGMENTS } from '../../../src/augments/registry.js';
import { commandTurn, runMessageCommand } from '../../../src/hosts/slash-command.js';
import { Conversation, type ConversationTurn } from '../../../src/kernel/conversation.js';
import type { PersonChannel } from '../../../src/kernel/person.js';
import { resolveModelSpec } from '../../../src/model/model-spec.js';
import { openSession } from '../../../src/session/session.js';
import { makeAgentFolder } from '../../helpers/agent-fixture.js';
import { loadFolder } from '../../helpers/board-fixture.js';

/** The goal's first turn asks a form; the evaluator wants a second turn after it. */
const SCRIPT = `rules:
  - system: "goal evaluator"
    replies:
      - text: '{"met": false, "reason": "The plan is asked for, not written."}'
      - text: '{"met": true, "reason": "The plan is written."}'
  - match: "Keep working toward it"
    steps:
      - text: "Wrote the plan."
  - match: ".*"
    steps:
      - toolCalls:
          - name: ask_user
            args:
              prompt: "Which release?"
              fields:
                - { name: version, question: "Which version?", type: text }
      - text: "Noted the version."
`;

/** A person at the prompt who takes `ms` to answer each question. */
function slowPerson(ms: number): PersonChannel {
  return {
    present: () => true,
    ask: () => new Promise((resolve) => setTimeout(() => resolve({ kind: 'answer', text: '2.4.0' }), ms)),
  };
}

describe("the goal's working clock", () => {
  it('leaves out the time the person took to answer a form mid-turn, so maxWallSeconds is the agent’s time', async () => {
    const dir = makeAgentFolder({
      augments: ['turnControl', 'questions', 'goal'],
      engine: 'engine:\n  provider: scripted\n  model: goal\n  script: ./script.yaml\n',
      files: { 'script.yaml': SCRIPT, 'augments/goal/augment.yaml': 'type: goal\nconfig:\n  maxWallSeconds: 3\n' },
    });
    const agent = await loadFolder(dir);
    const session = await openSession({ agentDir: dir, agentName: agent.yaml.name });
    const modelSpec = resolveModelSpec(agent, {}, {});
    const conversation = await Conversation.open({ augmentTypes: BUILTIN_AUGMENTS, agent, modelSpec, session, warn: () => undefined });
    const options = { person: slowPerson(3200) };

    const started = await runMessageCommand(conversation, '/goal plan the release');
    const start = started?.output.startTurn;
    if (!start) throw new Error('/goal started no turn');
    let turn: ConversationTurn = await commandTurn(conversation, start, options)();
    const statuses = [turn.status];
    while (turn.continuation) {
      turn = await conversation.continueTurn(turn.continuation, options);
      statuses.push(turn.status);
    }
    // The person's 3.2 s on the form would have used up the 3 s bound; the agent's own time did not.
    expect(statuses).toEqual(['completed', 'completed']);
    expect(turn.release?.message).toBe('goal achieved: The plan is written.');
    await session.close();
  });
});
