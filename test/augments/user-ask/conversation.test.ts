import { describe, expect, it } from 'vitest';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Conversation } from '../../../src/kernel/conversation.js';
import type { KernelEvent } from '../../../src/kernel/events.js';
import { resolveModelSpec } from '../../../src/model/model-spec.js';
import { openSession } from '../../../src/session/session.js';
import { makeAgentFolder } from '../../helpers/agent-fixture.js';
import { loadFolder } from './harness.js';
import { BUILTIN_AUGMENTS } from '../../../src/augments/registry.js';
import { folderOf } from '../../helpers/session-folder.js';

// A scripted engine plays both the agent and the evaluator: the evaluator rule comes first and is
// picked by a phrase of the evaluator's system prompt, then by the turn status in its prompt.
const SCRIPT = `rules:
  - system: "turn evaluator for a tracked user request"
    match: 'status="completed">\\s*Deployed'
    steps:
      - text: '{"outcome": "done", "reason": "The service is deployed."}'
  - system: "turn evaluator for a tracked user request"
    steps:
      - text: 'Verdict: {"outcome": "in_progress", "reason": "Waiting for the service name."}'
  - match: "api-west"
    steps:
      - text: "Deployed api-west."
  - match: "deploy"
    steps:
      - toolCalls:
          - name: request_input
            args:
              prompt: "Which service: api-west or api-east?"
`;

function scriptedFolder(): string {
  return makeAgentFolder({
    augments: ['turnControl', 'userAsk'],
    engine: 'engine:\n  provider: scripted\n  model: test\n  script: ./script.yaml\n',
    files: { 'script.yaml': SCRIPT },
  });
}

async function open(dir: string, sessionId?: string) {
  const agent = await loadFolder(dir);
  const warnings: string[] = [];
  const session = await openSession({ agentDir: dir, agentName: agent.yaml.name, sessionId });
  const conversation = await Conversation.open({
    augmentTypes: BUILTIN_AUGMENTS,
    agent,
    modelSpec: resolveModelSpec(agent, {}, {}),
    session,
    warn: (m) => warnings.push(m),
  });
  const events: KernelEvent[] = [];
  conversation.subscribe((event) => events.push(event));
  return { conversation, warnings, events };
}

const lines = (events: KernelEvent[]) => events.flatMap((e) => (e.type === 'CUSTOM' && e.name === 'auggy.system' ? [(e.value as { text: string }).text] : []));

describe('userAsk inside a Conversation with a scripted model', () => {
  it('judges each turn with a tool-less completion: input-required stays in progress, the answer achieves it', async () => {
    const dir = scriptedFolder();
    const { conversation, events } = await open(dir);
    expect(conversation.commands().map((c) => c.name)).toContain('ask');
    expect(conversation.indicators()).toEqual([]);

    const asked = await conversation.runTurn('deploy the api');
    expect(asked.status).toBe('input-required');
    expect(lines(events)).toEqual(['user ask in progress: Waiting for the service name.']);
    expect(conversation.indicators()).toEqual(['? ask (1)']);
    expect(conversation.snapshot()).toMatchObject({ ask: { text: 'deploy the api', active: true, outcome: 'in_progress', evaluatedTurns: 1 } });

    const done = await conversation.runTurn('api-west');
    expect(done.status).toBe('completed');
    expect(lines(events).at(-1)).toBe('user ask achieved: The service is deployed.');
    expect(conversation.indicators()).toEqual([]);
    expect(conversation.snapshot()).toMatchObject({
      ask: { text: 'api-west', active: false, outcome: 'achieved', evaluatedTurns: 2, revisions: ['deploy the api'] },
    });
    // The evaluation is in the session log like every event, after the turn's RUN_FINISHED.
    const types = events.map((e) => (e.type === 'CUSTOM' ? e.name : e.type));
    expect(types.slice(-3)).toEqual(['RUN_FINISHED', 'userAsk.evaluation', 'auggy.system']);
  });

  it("the session keeps each turn's tokens with the evaluator's, so a resumed chat counts what the live one showed", async () => {
    const dir = scriptedFolder();
    const { conversation } = await open(dir);
    const turns = [await conversation.runTurn('deploy the api'), await conversation.runTurn('api-west')];
    // "Deployed api-west." is 2 words; the evaluator's verdicts add their own.
    expect(turns[1]!.usage.outputTokens).toBeGreaterThan(2);
    const logged = conversation.session.entries().entries.flatMap((entry) => (entry.kind === 'record' && entry.name === 'usage' ? [entry.data] : []));
    // Beside the tokens, each record keeps the model that spent them and the context meter after the turn.
    expect(logged).toEqual(turns.map((turn) => ({ ...turn.usage, model: 'scripted:test', context: { used: turn.context?.used } })));
  });

  it('resuming the session restores the ask with the counter at 0; /clear removes it', async () => {
    const dir = scriptedFolder();
    const first = await open(dir);
    await first.conversation.runTurn('deploy the api');
    const id = first.conversation.session.id;

    const resumed = await open(dir, id);
    expect(resumed.warnings).toEqual([]);
    expect(resumed.conversation.indicators()).toEqual(['? ask (0)']);
    expect(resumed.conversation.snapshot()).toMatchObject({ ask: { text: 'deploy the api', evaluatedTurns: 0, outcome: 'in_progress' } });

    const fresh = await resumed.conversation.clear();
    expect(existsSync(join(folderOf(resumed.conversation.session), 'user_ask.json'))).toBe(false);
    expect(fresh.indicators()).toEqual([]);
    expect(fresh.snapshot()).toEqual({ ask: null });
  });

  it('a corrupt user_ask.json is reported through the host and the turn still runs', async () => {
    const dir = scriptedFolder();
    const first = await open(dir);
    await first.conversation.runTurn('deploy the api');
    writeFileSync(join(folderOf(first.conversation.session), 'user_ask.json'), 'not json at all');
    const resumed = await open(dir, first.conversation.session.id);
    expect(resumed.warnings).toEqual([expect.stringMatching(/^userAsk: user_ask\.json was not readable JSON and was set aside/)]);
    const result = await resumed.conversation.runTurn('api-west');
    expect(result.status).toBe('completed');
    expect(resumed.conversation.snapshot()).toMatchObject({ ask: { text: 'api-west', outcome: 'achieved' } });
  });
});
