import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeAgentFolder } from '../../helpers/agent-fixture.js';
import { auggy } from '../../helpers/auggy-cli.js';
import { auggyTerminals, sendLine } from '../../helpers/auggy-terminal.js';
import { tmuxAvailable } from '../../helpers/tmux.js';

const terminals = auggyTerminals();

const SLOW_REPLY = Array.from({ length: 60 }, (_, index) => `word${index}`).join(' ');

/**
 * A goal that is never met, with replies slow enough (one word at a time) to press keys during a
 * turn. The verdict on turn N says "Part N" whichever process judges it (the evaluator's prompt
 * numbers the turn), so a resumed session goes on where the first left off.
 */
function slowGoalAgent(): string {
  const verdicts = Array.from(
    { length: 8 },
    (_, index) =>
      `  - system: "goal evaluator"\n    match: 'latest_turn number="${index + 1}"'\n    steps:\n      - text: '{"met": false, "reason": "Part ${index + 1} is still missing."}'`,
  ).join('\n');
  return makeAgentFolder({
    augments: ['turnControl', 'goal'],
    engine: 'engine:\n  provider: scripted\n  model: slow\n  script: ./script.yaml\n',
    files: {
      'script.yaml': `chunkDelayMs: 120\nrules:\n${verdicts}\n  - match: ".*"\n    steps:\n      - text: "Working: ${SLOW_REPLY}"\n`,
    },
  });
}

function goalFile(dir: string): { status: string; note: string | null } {
  const sessions = join(dir, '.auggy', 'sessions');
  const [session] = readdirSync(sessions);
  return JSON.parse(readFileSync(join(sessions, session, 'goal.json'), 'utf8')) as { status: string; note: string | null };
}

describe.skipIf(!tmuxAvailable())('the goal in the chat, in a real terminal', { timeout: 180_000 }, () => {
  it('the loop runs by itself with ◎ goal (N); one Esc only warns, Esc twice cancels the turn and pauses the goal; /clear drops it', async () => {
    const dir = slowGoalAgent();
    const terminal = await terminals.run(dir);
    await sendLine(terminal, '/goal finish every part');
    await terminal.waitForText('Goal set: finish every part');
    // The first verdict, then the agent keeps the floor: the next turn starts with no key pressed.
    await terminal.waitForText('goal not met (turn 1 of 20): Part 1 is still missing.', { joined: true });
    await terminal.waitForText('↻ goal: the agent keeps the floor for the next turn');
    await terminal.waitForText('◎ goal (1)');
    await terminal.waitForText('Working: word0');

    await terminal.press('Escape');
    await terminal.waitForText('Esc again cancels and pauses the goal');
    await terminal.press('Escape');
    const screen = await terminal.waitForText('goal paused: the turn was canceled; /goal resume goes on', { joined: true });
    expect(screen).not.toContain('goal not met (turn 2');
    await terminal.waitForText('◎ goal paused');
    expect(goalFile(dir)).toMatchObject({ status: 'paused', note: 'goal paused: the turn was canceled; /goal resume goes on' });

    // Paused, nothing starts by itself; /goal says so.
    await sendLine(terminal, '/goal');
    await terminal.waitForText('Goal (paused: /goal resume goes on): finish every part');

    // /clear starts a new conversation, and the goal goes with the old one.
    const [session] = readdirSync(join(dir, '.auggy', 'sessions'));
    await sendLine(terminal, '/clear');
    await terminal.waitForScreen((screen) => !screen.includes('◎ goal'), 'the status line without the goal');
    // The status line is drawn before the old session's goal.json is removed: wait for the file.
    const goalJson = join(dir, '.auggy', 'sessions', session, 'goal.json');
    for (let tries = 0; existsSync(goalJson) && tries < 100; tries++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(existsSync(goalJson)).toBe(false);
  });

  it("a message typed during the goal's turns waits through them, Esc removing a queued line never arms the pause, and Ctrl+C pauses the goal and sends it", async () => {
    const dir = slowGoalAgent();
    const terminal = await terminals.run(dir);
    await sendLine(terminal, '/goal finish every part');
    await terminal.waitForText('Working: word0');
    await sendLine(terminal, 'a note for later');
    await terminal.waitForText('queued: a note for later');
    await sendLine(terminal, 'drop this');
    await terminal.waitForText('queued: drop this');
    await terminal.press('Escape');
    const removed = await terminal.waitForScreen((screen) => !screen.includes('queued: drop this'), 'the newest queued line removed');
    expect(removed).not.toContain('Esc again cancels');
    // The next turn of the goal starts by itself; the queue waits for the whole run.
    await terminal.waitForText('↻ goal: the agent keeps the floor for the next turn');
    expect(await terminal.screen()).toContain('queued: a note for later');
    await terminal.press('C-c');
    await terminal.waitForText('goal paused: the turn was canceled; /goal resume goes on', { joined: true });
    await terminal.waitForScreen((screen) => /^› a note for later$/m.test(screen) && !screen.includes('queued:'), 'the queued message sent');
    expect(goalFile(dir).status).toBe('paused');
  });

  it('a goal paused by Esc twice comes back paused on --continue and starts no turn until /goal resume', async () => {
    const dir = slowGoalAgent();
    const first = await terminals.run(dir);
    await sendLine(first, '/goal finish every part');
    await first.waitForText('goal not met (turn 1 of 20)', { joined: true });
    await first.press('Escape');
    // The second Esc once the first is drawn, as a person presses them: two in one read are one key.
    await first.waitForText('Esc again cancels and pauses the goal');
    await first.press('Escape');
    await first.waitForText('◎ goal paused');
    await first.press('C-c');
    await first.press('C-c');
    await first.waitForExit();

    const again = await terminals.run(dir, ['--continue']);
    await again.waitForText('◎ goal paused');
    expect(await again.screen()).not.toContain('goal restored');
    await sendLine(again, '/goal resume');
    await again.waitForText('Goal resumed: finish every part');
    await again.waitForText('goal not met (turn 2 of 20): Part 2 is still missing.', { joined: true });
    expect(goalFile(dir).status).toBe('active');
  });

  it('a goal a dead process left active goes on by itself on --continue, to its end', async () => {
    const dir = makeAgentFolder({
      augments: ['turnControl', 'goal'],
      engine: 'engine:\n  provider: scripted\n  model: goal\n  script: ./script.yaml\n',
      files: {
        'script.yaml': [
          'rules:',
          '  - system: "goal evaluator"',
          '    steps:',
          `      - text: '{"met": true, "reason": "Both parts are done."}'`,
          '  - match: "Keep working toward it: finish both parts"',
          '    steps:',
          '      - text: "Did part two."',
          '  - match: ".*"',
          '    steps:',
          '      - text: "Hello."',
          '',
        ].join('\n'),
      },
    });
    const made = await auggy(['run', dir, '--print', 'hello', '--output', 'json']);
    expect(made.exitCode).toBe(0);
    const { sessionId } = JSON.parse(made.stdout) as { sessionId: string };
    // What a chat killed mid-goal leaves behind: the goal still active, one verdict in.
    const at = new Date().toISOString();
    const goal = {
      version: 1,
      condition: 'finish both parts',
      status: 'active',
      setAt: at,
      turns: 1,
      tokens: 0,
      elapsedMs: 0,
      note: null,
      verdicts: [{ met: false, reason: 'Part two is missing.', turn: 1, at }],
    };
    writeFileSync(join(dir, '.auggy', 'sessions', sessionId, 'goal.json'), JSON.stringify(goal));

    const again = await terminals.run(dir, ['--continue']);
    await again.waitForText('goal restored: the agent goes on working toward it (Esc twice pauses it)', { joined: true });
    await again.waitForText('Did part two.');
    await again.waitForText('goal achieved: Both parts are done.');
    expect(goalFile(dir).status).toBe('achieved');
  });
});
