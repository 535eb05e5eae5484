import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeAgentFolder, REPO_ROOT } from '../helpers/agent-fixture.js';
import { auggy } from '../helpers/auggy-cli.js';
import { chatServersPerTest, type ChatServer, type ReceivedRequest } from '../helpers/chat-server.js';

interface Outcome {
  type: string;
  status: string;
  actual: string;
}
interface Turn {
  index: number;
  round?: number;
  persona?: string;
  content?: string;
  problems: string[];
  notes: string[];
  assertions: Outcome[];
}
interface Report {
  summary: { passed: number; failed: number };
  scenarios: { name: string; passed: boolean; failures: { where: string; actual: string }[]; runs: { turns: Turn[] }[] }[];
}

/** examples/assertions-test's self-play scenario, its persona and both mock configs, as an agent folder. */
function fixture(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'auggy-pk-self-play-')), 'self-play');
  cpSync(join(REPO_ROOT, 'test', 'fixtures', 'promptkit', 'self-play'), dir, { recursive: true });
  return dir;
}

function turnsOf(report: Report): Turn[] {
  return report.scenarios[0].runs[0].turns;
}

describe('PromptKit self-play turns played offline by their mock responses', () => {
  it("plays the persona's messages from the role's mock config, each answered by the agent and checked by the turn's assertions", async () => {
    const run = await auggy(['test', fixture(), '--reporter', 'json']);
    expect(run.exitCode, String(run.stderr)).toBe(0);
    const report = JSON.parse(String(run.stdout)) as Report;
    expect(report.summary).toMatchObject({ passed: 1, failed: 0 });
    const turns = turnsOf(report);
    // PromptKit numbers the persona's mock turn by the conversation: its first message is turn 2.
    expect(turns.map((turn) => [turn.index, turn.round, turn.content?.slice(0, 30)])).toEqual([
      [1, undefined, "Let's discuss the benefits of "],
      [2, 1, 'Interesting! What other renewa'],
      [2, 2, 'Mock response'],
    ]);
    expect(turns[1]).toMatchObject({
      persona: 'curious-learner',
      notes: ['persona curious-learner was played by the mock config for gemini-user (mock-responses-selfplay.yaml)'],
    });
    expect(turns.slice(1).flatMap((turn) => turn.assertions.map((outcome) => [outcome.type, outcome.status]))).toEqual([
      ['content_matches', 'passed'],
      ['content_matches', 'passed'],
    ]);
  });

  it("fails when the agent's reply to a persona message misses the turn's check, naming which message it was", async () => {
    const dir = fixture();
    writeFileSync(
      join(dir, 'mock-responses.yaml'),
      'scenarios:\n  self-play:\n    turns:\n      1: "solar power"\n      2: "Solar again"\n      3: "wind only"\n',
    );
    const run = await auggy(['test', dir]);
    expect(run.exitCode).toBe(1);
    expect(String(run.stdout)).toContain('turn 2 message 2 "Mock response" · content_matches');
    expect(String(run.stdout)).toContain('Should mention solar in the follow-up turns.');
  });

  it("without self-play.yaml the agent's own mock config plays the persona from its selfplay section, as one file serves both in PromptKit", async () => {
    const dir = fixture();
    rmSync(join(dir, 'self-play.yaml'));
    writeFileSync(
      join(dir, 'mock-responses.yaml'),
      'defaultResponse: "Solar power is the answer."\nselfplay:\n  curious-learner:\n    defaultResponse: "And at night?"\n    turns:\n      2: "How do panels work?"\n',
    );
    const run = await auggy(['test', dir, '--reporter', 'json']);
    expect(run.exitCode, String(run.stderr)).toBe(0);
    const turns = turnsOf(JSON.parse(String(run.stdout)) as Report);
    expect(turns.slice(1).map((turn) => turn.content)).toEqual(['How do panels work?', 'And at night?']);
    expect(turns[1].notes).toEqual(["persona curious-learner was played by the agent's mock config (mock-responses.yaml)"]);
  });

  it('a self-play.yaml role whose script is missing is an error at its line, and nothing runs', async () => {
    const dir = fixture();
    rmSync(join(dir, 'mock-responses-selfplay.yaml'));
    const run = await auggy(['test', dir]);
    expect(run.exitCode).toBe(2);
    expect(String(run.stderr)).toContain('self-play.yaml:5');
    expect(String(run.stderr)).toContain('roles[0].script ./mock-responses-selfplay.yaml does not exist');
    expect(String(run.stdout)).toBe('');
  });

  it('a persona with no file is skipped with the reason, its checks skipped and never passed', async () => {
    const dir = fixture();
    rmSync(join(dir, 'personas'), { recursive: true });
    const run = await auggy(['test', dir, '--reporter', 'json']);
    const turn = turnsOf(JSON.parse(String(run.stdout)) as Report)[1];
    expect(turn.round).toBeUndefined();
    expect(turn.assertions).toEqual([expect.objectContaining({ status: 'skipped', actual: expect.stringMatching(/persona curious-learner has no file/) })]);
    const text = await auggy(['test', dir]);
    expect(String(text.stdout)).toMatch(
      /note: turn 2: its self-play messages were not played: persona curious-learner has no file: no \*\.persona\.yaml with metadata\.name curious-learner in .*personas/,
    );
  });

  it('a persona model that cannot be built (no key) skips the turn, saying so, and a bad --persona-model is refused before anything runs', async () => {
    const dir = fixture();
    rmSync(join(dir, 'self-play.yaml'));
    writeFileSync(
      join(dir, 'agent.yaml'),
      'name: pk-self-play\nengine:\n  provider: scripted\n  model: mock\n  script: ./rules.yaml\naugments:\n  - workflow\n',
    );
    writeFileSync(join(dir, 'rules.yaml'), 'rules:\n  - steps:\n      - text: "solar power"\n');
    const run = await auggy(['test', dir, '--reporter', 'json', '--persona-model', 'anthropic:claude-haiku-4-5']);
    const turn = turnsOf(JSON.parse(String(run.stdout)) as Report)[1];
    expect(turn.assertions[0]).toMatchObject({
      status: 'skipped',
      actual: expect.stringMatching(/the persona's model anthropic:claude-haiku-4-5 cannot be used: .*ANTHROPIC_API_KEY/),
    });
    const bad = await auggy(['test', dir, '--persona-model', 'gpt-4o']);
    expect(bad.exitCode).toBe(2);
    expect(String(bad.stderr)).toMatch(/--persona-model "gpt-4o" must be provider:model/);
  });
});

/** An agent on the loopback server, with a persona and a scenario that hands the person's side to it. */
function loopbackAgent(url: string, selfPlayTurn: string, augments?: string[]): string {
  const dir = makeAgentFolder({ engine: `engine:\n  provider: openai-compatible\n  model: agent-model\n  baseURL: ${url}\n`, augments });
  mkdirSync(join(dir, 'tests', 'personas'), { recursive: true });
  writeFileSync(
    join(dir, 'tests', 'personas', 'frugal-buyer.persona.yaml'),
    'apiVersion: promptkit.altairalabs.ai/v1alpha1\nkind: Persona\nmetadata:\n  name: frugal-buyer\nspec:\n  system_template: "You are a buyer who wants {{persona_goals}}. Keep it {{verbosity}}."\n  goals: ["the lowest price"]\n  style: { verbosity: short }\n  defaults: { temperature: 0.3 }\n',
  );
  writeFileSync(
    join(dir, 'tests', 'haggle.scenario.yaml'),
    `apiVersion: promptkit.altairalabs.ai/v1alpha1\nkind: Scenario\nmetadata:\n  name: haggle\nspec:\n  turns:\n    - role: user\n      content: "Do you sell kettles?"\n${selfPlayTurn}`,
  );
  return dir;
}

const personaRequests = (server: ChatServer) => server.requests.filter((request) => JSON.stringify(request.body.messages).includes('You are a buyer'));

describe('PromptKit self-play turns played by a model', () => {
  const startServer = chatServersPerTest();

  it('--persona-model plays the persona from its prompt, seeing the conversation with roles swapped, until it says the conversation is complete', async () => {
    const persona = ['What is your cheapest one?', 'Fine, I will take it. [CONVERSATION_COMPLETE]'];
    let asked = 0;
    const server = await startServer((request: ReceivedRequest) =>
      request.body.model === 'persona-model' ? { text: persona[asked++] } : { text: `Our cheapest kettle costs 12 euros (reply ${server.requests.length}).` },
    );
    const dir = loopbackAgent(
      server.url,
      '    - role: openai-user\n      persona: frugal-buyer\n      turns: 1\n      max_turns: 4\n      assertions:\n        - type: content_includes\n          params: { patterns: ["euros"] }\n',
    );
    const run = await auggy(['test', dir, '--reporter', 'json', '--persona-model', 'openai-compatible:persona-model']);
    expect(run.exitCode, String(run.stderr)).toBe(0);
    const turns = turnsOf(JSON.parse(String(run.stdout)) as Report);
    expect(turns.map((turn) => [turn.round, turn.content])).toEqual([
      [undefined, 'Do you sell kettles?'],
      [1, 'What is your cheapest one?'],
      [2, 'Fine, I will take it.'],
    ]);
    expect(turns[2].notes).toEqual(['persona frugal-buyer ended the conversation after 2 of up to 4 messages']);

    const [first, second] = personaRequests(server);
    expect(personaRequests(server)).toHaveLength(2);
    expect(first.body.model).toBe('persona-model');
    expect(first.body.tools).toBeUndefined();
    expect(first.body).toMatchObject({ temperature: 0.3, max_tokens: 300 });
    const system = first.body.messages[0];
    expect(system.role).toBe('system');
    expect(String(system.content)).toMatch(
      /^You are a buyer who wants the lowest price\. Keep it short\.\n\nWhen you feel the conversation has reached a natural conclusion/,
    );
    // The persona's own words are its replies; the agent's are what it answers.
    expect(second.body.messages.slice(1).map((message) => [message.role, String(message.content).slice(0, 26)])).toEqual([
      ['user', 'Begin the conversation.'],
      ['assistant', 'Do you sell kettles?'],
      ['user', 'Our cheapest kettle costs '],
      ['assistant', 'What is your cheapest one?'],
      ['user', 'Our cheapest kettle costs '],
    ]);
    // The agent is sent the persona's message as the person's, the marker taken out.
    const agentLast = server.requests.filter((request) => request.body.model === 'agent-model').at(-1);
    expect(agentLast?.body.messages.at(-1)).toMatchObject({ role: 'user', content: 'Fine, I will take it.' });
  });

  it("a persona's message that starts with a slash is sent to the agent as the person's words, not run as a command", async () => {
    const server = await startServer((request) =>
      JSON.stringify(request.body.messages).includes('You are a buyer') ? { text: '/goal buy the cheapest kettle' } : { text: 'Sure.' },
    );
    const dir = loopbackAgent(server.url, '    - role: openai-user\n      persona: frugal-buyer\n', ['turnControl', 'goal']);
    const run = await auggy(['test', dir, '--reporter', 'json']);
    expect(run.exitCode, String(run.stderr)).toBe(0);
    const agentLast = server.requests.filter((request) => !JSON.stringify(request.body.messages).includes('You are a buyer')).at(-1);
    expect(agentLast?.body.messages.at(-1)).toMatchObject({ role: 'user', content: '/goal buy the cheapest kettle' });
  });

  it("without --persona-model the agent's own model plays the persona, `turns` times, and a persona model that fails fails the run", async () => {
    const server = await startServer((request) =>
      JSON.stringify(request.body.messages).includes('You are a buyer') ? { text: 'Any discount?' } : { text: 'No discount, sorry.' },
    );
    const dir = loopbackAgent(server.url, '    - role: openai-user\n      persona: frugal-buyer\n      turns: 2\n');
    const run = await auggy(['test', dir, '--reporter', 'json']);
    expect(run.exitCode, String(run.stderr)).toBe(0);
    const turns = turnsOf(JSON.parse(String(run.stdout)) as Report);
    expect(turns.map((turn) => turn.content)).toEqual(['Do you sell kettles?', 'Any discount?', 'Any discount?']);
    expect(turns[1].notes).toEqual(["persona frugal-buyer was played by the agent's model (openai-compatible:agent-model)"]);
    expect(personaRequests(server).map((request) => [request.body.model, request.body.max_tokens])).toEqual([
      ['agent-model', 200],
      ['agent-model', 200],
    ]);

    await server.close();
    const failingServer = await startServer((request) =>
      JSON.stringify(request.body.messages).includes('You are a buyer') ? { status: 400 } : { text: 'Hello.' },
    );
    const failing = loopbackAgent(failingServer.url, '    - role: openai-user\n      persona: frugal-buyer\n');
    const failed = await auggy(['test', failing, '--reporter', 'json']);
    expect(failed.exitCode).toBe(1);
    const report = JSON.parse(String(failed.stdout)) as Report;
    expect(report.scenarios[0].failures[0]).toMatchObject({
      where: 'turn 2 message 1',
      actual: expect.stringMatching(/^persona frugal-buyer's message 1 was not written: the persona's model failed: /),
    });
  });
});
