import { describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { dirname } from 'node:path';
import { AUGGY_BIN, copyExample, makeAgentFolder } from '../helpers/agent-fixture.js';
import { CLEAN_MODEL_ENV, TUI_READY, auggyTerminals, sendLine } from '../helpers/auggy-terminal.js';
import { chatServersPerTest } from '../helpers/chat-server.js';
import { tempDir } from '../helpers/temp-dir.js';
import { tmuxAvailable, type Terminal } from '../helpers/tmux.js';

// Servers first: after-each hooks run last-registered first, so the chats end before their servers close.
const startServer = chatServersPerTest();
const terminals = auggyTerminals();

const terminal = terminals.open;

/** Seen by Ctrl+D on an empty line: the chat quits and prints how to resume it. */
async function quit(t: Terminal): Promise<string> {
  await t.press('C-d');
  expect(await t.waitForExit()).toBe(0);
  return t.screen({ joined: true });
}

/** The demo's folder with two sessions, `hello` then `deploy the api`, and `auggy` + `args` on it. */
async function twoSessions(args: string[]): Promise<Terminal> {
  const dir = copyExample();
  const env = { ...CLEAN_MODEL_ENV, NO_COLOR: '1' };
  await execa('node', [AUGGY_BIN, '-p', 'hello'], { cwd: dir, env, reject: false });
  await execa('node', [AUGGY_BIN, '-p', 'deploy the api'], { cwd: dir, env, reject: false });
  return terminal({ command: ['node', AUGGY_BIN, ...args], cwd: dir });
}

/** The chat opened on the older session, the one that said hello. */
async function openedOnHello(t: Terminal): Promise<void> {
  await t.waitForText(TUI_READY);
  const chat = await t.screen();
  expect(chat).toContain('(resumed)');
  expect(chat).toContain("Hello! I'm the demo agent.");
  expect(chat).not.toContain('deploy the api');
}

describe.skipIf(!tmuxAvailable())('first contact in a real terminal', { timeout: 180_000 }, () => {
  it('bare auggy in an agent folder opens the chat there', async () => {
    const dir = copyExample();
    const t = await terminal({ command: ['node', AUGGY_BIN], cwd: dir });
    await t.waitForText(TUI_READY);
    expect(await t.screen()).toContain('Demo · scripted:');
  });

  it('bare auggy outside an agent folder prints the help and exits 0', async () => {
    const t = await terminal({ command: ['node', AUGGY_BIN], cwd: tempDir('auggy-bare-') });
    expect(await t.waitForExit()).toBe(0);
    expect(await t.screen()).toContain('Exit codes:');
  });

  it('the exit hint, with --model and --base-url, reopens the same session on the same model when typed as printed', async () => {
    const server = await startServer([{ text: 'First answer.' }, { text: 'Second answer.' }]);
    const dir = makeAgentFolder();
    const cwd = dirname(dir);
    const first = await terminal({ command: ['node', AUGGY_BIN, 'run', 'agent', '--model', 'openai-compatible:test', '--base-url', server.url], cwd });
    await first.waitForText(TUI_READY);
    await sendLine(first, 'hello');
    await first.waitForText('First answer.');
    const screen = await quit(first);
    const hint = /Resume this chat with: (.+)$/m.exec(screen)?.[1].trim();
    expect(hint).toMatch(/ run agent --session \S+ --model openai-compatible:test --base-url http:\/\/127\.0\.0\.1:\d+/);

    const again = await terminal({ command: ['sh', '-c', hint!], cwd });
    await again.waitForText(TUI_READY);
    expect(await again.screen()).toContain('(resumed)');
    await sendLine(again, 'and again');
    await again.waitForText('Second answer.');
    expect(server.requests).toHaveLength(2);
    expect(JSON.stringify(server.requests[1].body.messages)).toContain('First answer.');
  });

  it('a chat opened and quit with nothing said prints no resume hint', async () => {
    const dir = copyExample();
    const t = await terminal({ command: ['node', AUGGY_BIN, 'run', dir] });
    await t.waitForText(TUI_READY);
    expect(await quit(t)).not.toContain('Resume this chat with');
  });

  it('--resume without an id offers the sessions to pick from, newest first, and opens the one picked', async () => {
    const t = await twoSessions(['--resume']);
    const picker = await t.waitForText('Resume a session');
    const rows = picker.split('\n').filter((line) => /\d{8}-\d{6}-/.test(line));
    expect(rows[0]).toMatch(/^› .*waiting for your answer\s+deploy the api/);
    expect(rows[1]).toMatch(/completed\s+hello/);
    // Down to the older one, and open it.
    await t.press('Down');
    await t.waitForScreen((screen) => /^› .*completed\s+hello/m.test(screen), 'the second row picked');
    await t.press('Enter');
    await openedOnHello(t);
  });

  it('-r: Down and Enter arriving in one read act in order, opening the second session', async () => {
    const t = await twoSessions(['-r']);
    await t.waitForScreen((screen) => /^› .*deploy the api/m.test(screen), 'the picker on the newest session');
    await t.write('\u001b[B\r');
    await openedOnHello(t);
  });

  it("-r: tmux's Down and Enter sent at once open the second session too", async () => {
    const t = await twoSessions(['-r']);
    await t.waitForScreen((screen) => /^› .*deploy the api/m.test(screen), 'the picker on the newest session');
    await t.press('Down', 'Enter');
    await openedOnHello(t);
  });

  it('--resume with an id opens that session', async () => {
    const dir = copyExample();
    const asked = await execa('node', [AUGGY_BIN, '-p', 'deploy the api', '--output', 'json'], { cwd: dir, env: CLEAN_MODEL_ENV, reject: false });
    const { sessionId } = JSON.parse(asked.stdout) as { sessionId: string };
    const t = await terminal({ command: ['node', AUGGY_BIN, '-r', sessionId], cwd: dir });
    await t.waitForText('Type your reply');
    expect(await t.screen()).toContain(`session ${sessionId} (resumed)`);
  });
});
