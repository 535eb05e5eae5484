import { describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chatServersPerTest, type ChatReply, type ReceivedRequest } from '../../helpers/chat-server.js';
import { AUGGY_BIN, copyExample, makeAgentFolder } from '../../helpers/agent-fixture.js';

const startServer = chatServersPerTest();

const cleanEnv = { OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', AUGGY_MODEL: '', AUGGY_BASE_URL: '', AUGGY_API_KEY: '', NO_COLOR: '1' };
const EVALUATOR_PHRASE = 'turn evaluator for a tracked user request';

function auggy(args: string[]) {
  return execa('node', [AUGGY_BIN, ...args], { reject: false, env: cleanEnv, extendEnv: true });
}

function print(dir: string, url: string, ...rest: string[]) {
  return auggy(['run', dir, '--print', '--model', 'openai-compatible:test', '--base-url', url, ...rest]);
}

const folder = () => makeAgentFolder({ augments: ['turnControl', 'userAsk'] });
const system = (request: ReceivedRequest) => String(request.body.messages.find((m) => m.role === 'system')?.content ?? '');
const isEvaluator = (request: ReceivedRequest) => system(request).includes(EVALUATOR_PHRASE);
const lastUser = (request: ReceivedRequest) => String(request.body.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '');

/** The agent answers `agent`; the evaluator answers `verdicts` in order. */
function model(agent: (request: ReceivedRequest) => ChatReply, verdicts: ChatReply[]) {
  let judged = 0;
  return (request: ReceivedRequest): ChatReply =>
    isEvaluator(request) ? (verdicts[judged++] ?? { text: '{"outcome":"in_progress","reason":"default"}' }) : agent(request);
}
const verdict = (outcome: string, reason: string): ChatReply => ({ text: JSON.stringify({ outcome, reason }) });

interface Summary {
  status: string;
  sessionId: string;
  ask: {
    text: string;
    active: boolean;
    outcome: string | null;
    reason: string | null;
    evaluatedTurns: number;
    revisions: string[];
    evaluationError?: string;
  } | null;
}

describe('userAsk through the auggy binary against a Chat Completions server', () => {
  it('after the turn, one evaluator request with no tools carries the ask; --output json has ask', async () => {
    const server = await startServer(model(() => ({ text: 'Building the image first.' }), [verdict('in_progress', 'Only the build has started.')]));
    const dir = folder();
    const run = await print(dir, server.url, 'deploy the api', '--output', 'json');
    // The verdict reaches stderr in every output format; stdout stays pure JSON.
    expect(run.stderr.trim()).toBe('user ask in progress: Only the build has started.');
    expect(run.exitCode).toBe(0);
    expect(server.requests).toHaveLength(2);
    const [agent, evaluator] = server.requests;
    expect(agent.body.tools?.map((t) => t.function.name)).toEqual(['request_input', 'set_user_ask', 'clear_user_ask']);
    expect(system(agent)).toContain('<augment id="userAsk">');
    expect(system(agent)).toContain('Current ask:\ndeploy the api');
    expect(evaluator.body.tools).toBeUndefined();
    expect(isEvaluator(evaluator)).toBe(true);
    expect(lastUser(evaluator)).toContain('<ask>\ndeploy the api\n</ask>');
    expect(lastUser(evaluator)).toContain('[assistant] Building the image first.');
    const summary = JSON.parse(run.stdout) as Summary;
    expect(summary.ask).toEqual({
      text: 'deploy the api',
      active: true,
      outcome: 'in_progress',
      reason: 'Only the build has started.',
      evaluatedTurns: 1,
      revisions: [],
    });
  });

  it('text mode prints the verdict on stderr; achieved deactivates the ask and the next message starts a fresh one', async () => {
    const server = await startServer(
      model(() => ({ text: 'Done: api-west is live.' }), [verdict('achieved', 'api-west is live.'), verdict('in_progress', 'just started')]),
    );
    const dir = folder();
    const first = await print(dir, server.url, 'deploy api-west', '--output', 'json');
    expect(first.exitCode).toBe(0);
    const summary = JSON.parse(first.stdout) as Summary;
    expect(summary.ask).toMatchObject({ active: false, outcome: 'achieved', evaluatedTurns: 1 });
    const second = await print(dir, server.url, 'now update the docs', '--session', summary.sessionId);
    expect(second.exitCode).toBe(0);
    expect(second.stdout).toBe('Done: api-west is live.');
    expect(second.stderr).toBe('user ask in progress: just started');
    const saved = JSON.parse(readFileSync(join(dir, '.auggy', 'sessions', summary.sessionId, 'user_ask.json'), 'utf8')) as Record<string, unknown>;
    expect(saved).toMatchObject({
      text: 'now update the docs',
      active: true,
      evaluatedTurns: 1,
      revisions: [{ text: 'deploy api-west', outcome: 'achieved' }],
    });
  });

  it('in progress keeps the ask across two --print --session calls, restored from disk', async () => {
    const question = 'Which service: api-west or api-east?';
    const agent = (request: ReceivedRequest): ChatReply =>
      lastUser(request) === 'api-west' ? { text: 'Deploying api-west.' } : { toolCalls: [{ name: 'request_input', args: { prompt: question } }] };
    const server = await startServer(model(agent, [verdict('in_progress', 'Waiting for the service name.'), verdict('in_progress', 'Rollout under way.')]));
    const dir = folder();
    const first = await print(dir, server.url, 'deploy the api', '--output', 'json');
    // The exit code stays the turn's: input-required.
    expect(first.exitCode).toBe(3);
    const { sessionId, ask } = JSON.parse(first.stdout) as Summary;
    expect(ask).toMatchObject({ text: 'deploy the api', active: true, outcome: 'in_progress', evaluatedTurns: 1 });
    expect(lastUser(server.requests[1])).toContain('<latest_turn status="input-required">');
    const onDisk = JSON.parse(readFileSync(join(dir, '.auggy', 'sessions', sessionId, 'user_ask.json'), 'utf8')) as Record<string, unknown>;
    expect(onDisk).toMatchObject({
      text: 'deploy the api',
      active: true,
      evaluatedTurns: 1,
      lastOutcome: 'in_progress',
      lastReason: 'Waiting for the service name.',
    });

    const second = await print(dir, server.url, 'api-west', '--session', sessionId, '--output', 'json');
    expect(second.exitCode).toBe(0);
    const resumedAgent = server.requests[2];
    // Restored from disk: the earlier ask and its last evaluation reach the model.
    expect(system(resumedAgent)).toContain('Current ask:\napi-west');
    expect(system(resumedAgent)).toContain('Earlier asks, oldest first:\n- deploy the api');
    expect(system(resumedAgent)).toContain('Last evaluation: in progress (Waiting for the service name.)');
    expect(lastUser(server.requests[3])).toContain('<earlier_asks oldest_first="true">\n- deploy the api\n</earlier_asks>');
    // The counter starts again at 0 on resume, then this turn counts.
    expect((JSON.parse(second.stdout) as Summary).ask).toEqual({
      text: 'api-west',
      active: true,
      outcome: 'in_progress',
      reason: 'Rollout under way.',
      evaluatedTurns: 1,
      revisions: ['deploy the api'],
    });
  });

  it('stream-json carries the evaluation as a CUSTOM event and the ask in RESULT', async () => {
    const server = await startServer(model(() => ({ text: 'I cannot reach production.' }), [verdict('stuck', 'No access to production.')]));
    const run = await print(folder(), server.url, 'deploy', '--output', 'stream-json');
    expect(run.exitCode).toBe(0);
    const events = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; name?: string; value?: unknown; ask?: unknown });
    const custom = events.filter((e) => e.type === 'CUSTOM').map((e) => [e.name, e.value]);
    expect(custom).toEqual([
      [
        'userAsk.evaluation',
        {
          ok: true,
          outcome: 'blocked',
          reason: 'No access to production.',
          readable: true,
          ask: 'deploy',
          active: false,
          evaluatedTurns: 1,
          turnStatus: 'completed',
        },
      ],
      ['auggy.system', { text: 'user ask blocked: No access to production.' }],
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'RESULT', status: 'completed', ask: { outcome: 'blocked', active: false } });
    // As serve sends them: the turn's events, evaluations included, then the one terminal event, then RESULT.
    expect(events.slice(-4).map((e) => e.name ?? e.type)).toEqual(['userAsk.evaluation', 'auggy.system', 'RUN_FINISHED', 'RESULT']);
    expect(events.filter((e) => e.type === 'RUN_FINISHED')).toHaveLength(1);
  });

  it('a failing evaluator is reported on stderr, leaves the ask as it was and keeps the exit code', async () => {
    const server = await startServer(model(() => ({ text: 'Started.' }), Array<ChatReply>(6).fill({ status: 500 })));
    const text = await print(folder(), server.url, 'deploy');
    expect(text.exitCode).toBe(0);
    expect(text.stdout).toBe('Started.');
    expect(text.stderr).toMatch(/^user ask not evaluated: the evaluator call failed: .+ \(the ask stays as it was\)$/);
    const json = await print(folder(), server.url, 'deploy', '--output', 'json');
    expect(json.exitCode).toBe(0);
    expect((JSON.parse(json.stdout) as Summary).ask).toMatchObject({
      text: 'deploy',
      active: true,
      outcome: null,
      evaluatedTurns: 0,
      evaluationError: expect.any(String),
    });
  });

  it('auggy admin shows the tools, that it is on, and the evaluator model', async () => {
    const dir = makeAgentFolder({
      augments: ['turnControl', 'userAsk'],
      files: { 'augments/userAsk/augment.yaml': 'type: userAsk\nconfig:\n  evaluatorModel: openai:gpt-5.4-mini\n' },
    });
    const run = await auggy(['admin', dir]);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(/^userAsk\n {2}Tools: set_user_ask, clear_user_ask$/m);
    expect(run.stdout).toMatch(/Status\s+on \(opt-in/);
    expect(run.stdout).toMatch(/Evaluator model\s+openai:gpt-5\.4-mini/);
  });
});

describe('userAsk in the bundled demo, offline', () => {
  it('the scripted evaluator keeps the ask open on the question and achieves it on the answer', async () => {
    const dir = copyExample('demo');
    const asked = await auggy(['run', dir, '--print', 'deploy the api']);
    expect(asked.exitCode).toBe(3);
    expect(asked.stderr).toContain('user ask in progress: The agent asked which service to deploy; the request stays open until you answer.');
    const done = await auggy(['run', dir, '--print', '--continue', 'api-west', '--output', 'json']);
    expect(done.exitCode).toBe(0);
    const summary = JSON.parse(done.stdout) as Summary & { toolCalls: { name: string }[] };
    expect(summary.toolCalls.map((call) => call.name)).toEqual(['set_user_ask', 'board_write']);
    expect(summary.ask).toEqual({
      text: 'Deploy api-west to production.',
      active: false,
      outcome: 'achieved',
      reason: 'The service was built, pushed and rolled out; the new version is live.',
      evaluatedTurns: 1,
      revisions: ['deploy the api', 'api-west'],
    });
  });
});
