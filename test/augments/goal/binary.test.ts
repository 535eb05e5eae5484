import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chatServersPerTest } from '../../helpers/chat-server.js';
import { makeAgentFolder } from '../../helpers/agent-fixture.js';
import { goalFolder, isGoalEvaluator, lastUser, model, system, verdict } from './goal-model.js';
import { scriptedGoalFolder } from './scripted-goal.js';
import { auggy, auggyPrint } from '../../helpers/auggy-cli.js';

const startServer = chatServersPerTest();

interface Summary {
  status: string;
  message?: string;
  sessionId: string;
  turns: { status: string; text: string }[];
  goal: {
    condition: string;
    status: string;
    met: boolean;
    turns: number;
    reason: string | null;
    verdicts: { turn: number; met: boolean; reason: string }[];
  } | null;
}

const STEPS = [verdict(false, 'Step one is done; two and three remain.'), verdict(false, 'Step three remains.'), verdict(true, 'All three steps are done.')];

describe('goal through the auggy binary against a Chat Completions server', () => {
  it('a goal met after three turns: each turn is judged by a tool-less evaluator, the next starts with its reason, exit 0', async () => {
    const server = await startServer(model((turn) => ({ text: `Did step ${turn + 1}.` }), STEPS));
    const dir = goalFolder();
    const run = await auggyPrint(dir, server.url, '--goal', 'do the three steps', '--output', 'json');
    expect(run.exitCode).toBe(0);
    const summary = JSON.parse(run.stdout) as Summary;
    expect(summary.status).toBe('completed');
    expect(summary.message).toBe('goal achieved: All three steps are done.');
    expect(summary.turns.map((turn) => turn.text)).toEqual(['Did step 1.', 'Did step 2.', 'Did step 3.']);
    expect(summary.goal).toMatchObject({ condition: 'do the three steps', status: 'achieved', met: true, turns: 3 });
    expect(summary.goal?.verdicts.map((v) => v.met)).toEqual([false, false, true]);
    // Six calls: three turns, each followed by one evaluator call with no tools.
    expect(server.requests).toHaveLength(6);
    const evaluators = server.requests.filter(isGoalEvaluator);
    expect(evaluators).toHaveLength(3);
    for (const request of evaluators) expect(request.body.tools).toBeUndefined();
    expect(lastUser(evaluators[0])).toContain('<goal_condition>\ndo the three steps\n</goal_condition>');
    const agentCalls = server.requests.filter((request) => !isGoalEvaluator(request));
    expect(lastUser(agentCalls[0])).toBe('do the three steps');
    expect(lastUser(agentCalls[1])).toContain('The goal is not met yet: Step one is done; two and three remain.');
    expect(lastUser(agentCalls[2])).toContain('Keep working toward it: do the three steps');
    expect(system(agentCalls[0])).toContain('<goal_condition>\ndo the three steps\n</goal_condition>');
    // Each verdict on stderr, one line each.
    expect(run.stderr).toContain('goal not met (turn 1 of 20): Step one is done; two and three remain.');
    expect(run.stderr).toContain('goal not met (turn 2 of 20): Step three remains.');
    expect(run.stderr).toContain('goal achieved: All three steps are done.');
    const saved = JSON.parse(readFileSync(join(dir, '.auggy', 'sessions', summary.sessionId, 'goal.json'), 'utf8')) as { status: string };
    expect(saved.status).toBe('achieved');
  });

  it('stream-json carries every turn with its verdict before that turn ends, and one RESULT', async () => {
    const server = await startServer(model((turn) => ({ text: `Did step ${turn + 1}.` }), STEPS));
    const run = await auggyPrint(goalFolder(), server.url, '/goal do the three steps', '--output', 'stream-json');
    expect(run.exitCode).toBe(0);
    const events = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; name?: string; value?: { met?: boolean; status?: string } });
    const marks = events.flatMap((event) =>
      event.type === 'RUN_STARTED' || event.type === 'RUN_FINISHED' || event.type === 'RESULT'
        ? [event.type]
        : event.type === 'CUSTOM' && event.name === 'goal.verdict'
          ? [`verdict ${event.value?.met}`]
          : [],
    );
    expect(marks).toEqual([
      'RUN_STARTED',
      'verdict false',
      'RUN_FINISHED',
      'RUN_STARTED',
      'verdict false',
      'RUN_FINISHED',
      'RUN_STARTED',
      'verdict true',
      'RUN_FINISHED',
      'RESULT',
    ]);
  });

  it('a goal that asks the person in turn two waits (exit 3); the answer resumes the loop to the end (exit 0)', async () => {
    const server = await startServer(
      model(
        (turn) =>
          turn === 1
            ? { toolCalls: [{ name: 'request_input', args: { prompt: 'Which region: west or east?' } }] }
            : { text: turn === 0 ? 'Built the image.' : 'Deployed to west.' },
        [verdict(false, 'The image is built; it is not deployed yet.'), verdict(true, 'It is deployed to west.')],
      ),
    );
    const dir = goalFolder();
    const first = await auggyPrint(dir, server.url, '--goal', 'deploy the service', '--output', 'json');
    expect(first.exitCode).toBe(3);
    const asked = JSON.parse(first.stdout) as Summary;
    expect(asked.status).toBe('input-required');
    expect(asked.turns.map((turn) => turn.status)).toEqual(['completed', 'input-required']);
    expect(asked.goal).toMatchObject({ status: 'waiting', turns: 1 });
    expect(first.stderr).toContain('goal waiting: the agent asked you something; your answer resumes the goal');
    // The question turn was not judged: one verdict so far.
    expect(server.requests.filter(isGoalEvaluator)).toHaveLength(1);

    const answer = await auggyPrint(dir, server.url, '--session', asked.sessionId, 'west', '--output', 'json');
    expect(answer.exitCode).toBe(0);
    const done = JSON.parse(answer.stdout) as Summary;
    expect(done.goal).toMatchObject({ status: 'achieved', met: true, turns: 2 });
    expect(answer.stderr).toContain('goal achieved: It is deployed to west.');
  });

  it('with nobody there, a questionnaire in a goal turn gets no answer at once; the loop reads it and goes on within its bounds', async () => {
    const run = await auggy(['run', scriptedGoalFolder(), '--print', '/goal deploy', '--output', 'json']);
    expect(run.exitCode).toBe(0);
    const summary = JSON.parse(run.stdout) as Summary & { toolCalls: { name: string; result?: string }[] };
    expect(summary.turns.map((turn) => turn.status)).toEqual(['completed', 'completed']);
    expect(summary.goal).toMatchObject({ status: 'achieved', turns: 2 });
    const asked = summary.toolCalls.find((call) => call.name === 'ask_user');
    expect(JSON.stringify(asked)).toContain('no-answer');
  });

  it('maxTurns stops the loop as budget-exhausted with what was left undone (exit 1)', async () => {
    const server = await startServer(
      model((turn) => ({ text: `Attempt ${turn + 1}.`, toolCalls: [] }), [verdict(false, 'Test A still fails.'), verdict(false, 'Test B still fails.')]),
    );
    const run = await auggyPrint(goalFolder('  maxTurns: 2\n'), server.url, '--goal', 'all tests pass', '--output', 'json');
    expect(run.exitCode).toBe(1);
    const summary = JSON.parse(run.stdout) as Summary;
    expect(summary.status).toBe('budget-exhausted');
    expect(summary.message).toBe('goal budget exhausted: 2 turns of maxTurns 2 used; left undone: Test B still fails.');
    expect(summary.goal).toMatchObject({ status: 'budget-exhausted', turns: 2 });
    expect(server.requests.filter((request) => !isGoalEvaluator(request))).toHaveLength(2);
  });

  it('maxTokens stops the loop as budget-exhausted once the turns and their verdicts spent it (exit 1)', async () => {
    // The loopback server reports 18 tokens a call: a turn and its verdict spend 36.
    const server = await startServer(
      model((turn) => ({ text: `Attempt ${turn + 1}.` }), [verdict(false, 'Test A still fails.'), verdict(false, 'Test B still fails.')]),
    );
    const run = await auggyPrint(goalFolder('  maxTokens: 50\n'), server.url, '--goal', 'all tests pass', '--output', 'json');
    expect(run.exitCode).toBe(1);
    const summary = JSON.parse(run.stdout) as Summary;
    expect(summary.status).toBe('budget-exhausted');
    expect(summary.message).toBe('goal budget exhausted: 72 tokens of maxTokens 50 spent; left undone: Test B still fails.');
    expect(summary.goal).toMatchObject({ status: 'budget-exhausted', turns: 2 });
    expect(run.stderr).toContain('goal budget exhausted: 72 tokens of maxTokens 50 spent');
  });

  it('maxWallSeconds stops the loop as budget-exhausted once a turn has taken the time (exit 1)', async () => {
    // Four words 300 ms apart: the first turn alone takes over a second.
    const server = await startServer(model(() => ({ text: 'Working on it slowly.', chunkDelayMs: 300 }), [verdict(false, 'Nothing is deployed yet.')]));
    const run = await auggyPrint(goalFolder('  maxWallSeconds: 1\n'), server.url, '--goal', 'deploy it', '--output', 'json');
    expect(run.exitCode).toBe(1);
    const summary = JSON.parse(run.stdout) as Summary;
    expect(summary.status).toBe('budget-exhausted');
    expect(summary.message).toMatch(/^goal budget exhausted: \d+s of maxWallSeconds 1 taken; left undone: Nothing is deployed yet\.$/);
    expect(summary.turns).toHaveLength(1);
  });

  it('an evaluator that answers nonsense pauses the goal with one sentence (exit 1); no further turn starts', async () => {
    const server = await startServer(model(() => ({ text: 'Working on it.' }), [{ text: 'I would say it is mostly fine.' }]));
    const run = await auggyPrint(goalFolder(), server.url, '--goal', 'ship it', '--output', 'json');
    expect(run.exitCode).toBe(1);
    const summary = JSON.parse(run.stdout) as Summary;
    expect(summary.status).toBe('failed');
    expect(summary.goal?.status).toBe('paused');
    expect(summary.message).toMatch(
      /^goal paused: the evaluator gave no verdict \(its reply held no JSON object: "I would say it is mostly fine\."\); \/goal resume tries again$/,
    );
    expect(server.requests).toHaveLength(2);
  });

  it('an evaluator call that fails pauses the goal too', async () => {
    const server = await startServer(model(() => ({ text: 'Working on it.' }), [{ status: 400 }, { status: 400 }, { status: 400 }, { status: 400 }]));
    const run = await auggyPrint(goalFolder(), server.url, '--goal', 'ship it');
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toMatch(/goal paused: the evaluator gave no verdict \(the call failed: .*\); \/goal resume tries again/);
  });

  it('the same reason twice with no tool call between pauses the goal as no progress', async () => {
    const server = await startServer(model(() => ({ text: 'Thinking.' }), [verdict(false, 'Nothing changed.'), verdict(false, 'Nothing changed.')]));
    const run = await auggyPrint(goalFolder(), server.url, '--goal', 'fix the bug', '--output', 'json');
    expect(run.exitCode).toBe(1);
    const summary = JSON.parse(run.stdout) as Summary;
    expect(summary.goal).toMatchObject({ status: 'paused', turns: 2 });
    expect(summary.message).toBe('goal paused: no progress (the same verdict twice with no tool called between); /goal resume tries again');
  });

  it('a paused goal survives a restart: a message starts no loop, /goal shows it paused, /goal resume goes on to the end', async () => {
    const server = await startServer(
      model((turn) => ({ text: `Turn ${turn + 1}.` }), [{ text: 'not json' }, verdict(false, 'Half done.'), verdict(true, 'Done now.')]),
    );
    const dir = goalFolder();
    const first = await auggyPrint(dir, server.url, '--goal', 'finish the report', '--output', 'json');
    expect(first.exitCode).toBe(1);
    const { sessionId } = JSON.parse(first.stdout) as Summary;

    const shown = await auggyPrint(dir, server.url, '--session', sessionId, '/goal');
    expect(shown.exitCode).toBe(0);
    expect(shown.stdout).toContain('Goal (paused: /goal resume goes on): finish the report');

    const before = server.requests.length;
    const message = await auggyPrint(dir, server.url, '--session', sessionId, 'how is it going?', '--output', 'json');
    expect(message.exitCode).toBe(0);
    // One agent call, no evaluator: a paused goal starts no turn and judges none.
    expect(server.requests.length - before).toBe(1);
    expect((JSON.parse(message.stdout) as Summary).goal?.status).toBe('paused');

    const resumed = await auggyPrint(dir, server.url, '--session', sessionId, '/goal resume', '--output', 'json');
    expect(resumed.exitCode).toBe(0);
    const done = JSON.parse(resumed.stdout) as Summary;
    expect(done.goal).toMatchObject({ status: 'achieved', turns: 2 });
    expect(done.turns).toHaveLength(2);
    expect(resumed.stderr).toContain('Goal resumed: finish the report');
  });

  it('with userAsk on too, both verdicts are shown, each in its own words', async () => {
    const server = await startServer(model(() => ({ text: 'Done.' }), [verdict(true, 'The file exists.')]));
    const run = await auggyPrint(goalFolder(undefined, ['turnControl', 'userAsk', 'goal']), server.url, '--goal', 'create the file');
    expect(run.exitCode).toBe(0);
    expect(run.stderr).toContain('user ask in progress: the ask is under way');
    expect(run.stderr).toContain('goal achieved: The file exists.');
  });

  it('/goal says what is set; a condition over 4,000 characters is refused (exit 2), so is pausing a paused goal; every clear word drops it', async () => {
    const dir = scriptedGoalFolder();
    const run = (...args: string[]) => auggy(['run', dir, '--print', ...args]);
    const none = await run('/goal', '--output', 'json');
    expect(none.exitCode).toBe(0);
    const { sessionId } = JSON.parse(none.stdout) as { sessionId: string };
    expect(none.stdout).toContain('No goal is set. /goal <condition> sets one and starts working on it.');

    const long = await run('--session', sessionId, `/goal ${'x'.repeat(4001)}`);
    expect(long.exitCode).toBe(2);
    expect(long.stderr).toContain('The condition is 4001 characters; a goal takes at most 4000. Say it shorter.');

    // An unknown condition: the script's evaluator says the same thing twice, so it pauses as no progress.
    const set = await run('--session', sessionId, '/goal tidy the desk');
    expect(set.exitCode).toBe(1);
    const shown = await run('--session', sessionId, '/goal');
    expect(shown.stdout).toContain('Goal (paused: /goal resume goes on): tidy the desk');
    expect(shown.stdout).toContain('2 of 20 turns evaluated');
    expect(shown.stdout).toContain('Last verdict: not met: Nothing is done yet.');

    const paused = await run('--session', sessionId, '/goal pause');
    expect(paused.exitCode).toBe(2);
    expect(paused.stderr).toContain('No goal is open; nothing to pause.');

    for (const word of ['clear', 'STOP', 'off', 'reset', 'none', 'cancel']) {
      await run('--session', sessionId, '/goal tidy the desk');
      const cleared = await run('--session', sessionId, `/goal ${word}`);
      expect(cleared.stdout).toContain('Goal cleared.');
      expect(existsSync(join(dir, '.auggy', 'sessions', sessionId, 'goal.json'))).toBe(false);
    }
    const again = await run('--session', sessionId, '/goal clear');
    expect(again.stdout).toContain('No goal was set; nothing to clear.');
  });

  it('--goal without the goal augment is refused with what to add (exit 2)', async () => {
    const run = await auggy(['run', makeAgentFolder(), '--goal', 'anything']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('--goal needs the goal augment: add goal to the augments in agent.yaml');
  });
});
