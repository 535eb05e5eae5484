import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { copyExample, makeAgentFolder } from '../helpers/agent-fixture.js';
import { chatServersPerTest } from '../helpers/chat-server.js';
import { TUI_READY, auggyTerminals, sendLine } from '../helpers/auggy-terminal.js';
import { tmuxAvailable } from '../helpers/tmux.js';

// The real binary in a real terminal. Keys go in with send-keys; assertions read capture-pane.
// Servers first: after-each hooks run last-registered first, so the chats end before their servers close.
const startServer = chatServersPerTest();
const terminals = auggyTerminals();

/** The lines between the rules around the input. */
function inputArea(screen: string): string[] {
  const lines = screen.split('\n');
  const rules = lines.flatMap((line, index) => (line.startsWith('──') ? [index] : []));
  return rules.length < 2 ? [] : lines.slice(rules.at(-2)! + 1, rules.at(-1)).map((line) => line.trimEnd());
}

function loopbackArgs(url: string): string[] {
  return ['--model', 'openai-compatible:test', '--base-url', url];
}

function sessionLog(dir: string): { ids: string[]; lines: Record<string, unknown>[] } {
  const root = join(dir, '.auggy', 'sessions');
  const ids = readdirSync(root);
  const lines = readFileSync(join(root, ids[0], 'events.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { ids, lines };
}

// A loaded machine (the whole suite at once) can make a real terminal slow; room, not a race.
describe.skipIf(!tmuxAvailable())('auggy run in a terminal', { timeout: 180_000 }, () => {
  it('shows the header and answers a message from the scripted example', async () => {
    const dir = copyExample('demo');
    const terminal = await terminals.run(dir);
    expect(await terminal.screen()).toMatch(/Demo · scripted:demo · session \S+/);
    await sendLine(terminal, 'hello');
    await terminal.waitForText("Hello! I'm the demo agent.", { joined: true });
    await terminal.waitForText('✓ completed');
  });

  it('a question ends the turn input-required; the answer continues the same session', async () => {
    const dir = copyExample('demo');
    const terminal = await terminals.run(dir);
    await sendLine(terminal, 'deploy the api');
    const asked = await terminal.waitForText('waiting for your reply');
    expect(asked).toContain('? Which production service should I deploy: api-west or api-east?');
    expect(asked).toContain('? input-required');
    await sendLine(terminal, 'api-west');
    await terminal.waitForText('Deploying that service now', { joined: true });
    const done = await terminal.waitForText('✓ completed');
    expect(done).not.toContain('waiting for your reply');
    const { ids, lines } = sessionLog(dir);
    expect(ids).toHaveLength(1);
    expect(lines.filter((line) => line.kind === 'user').map((line) => line.text)).toEqual(['deploy the api', 'api-west']);
  });

  it('/help lists the commands; an unknown command names the nearest and sends nothing', async () => {
    const dir = copyExample('demo');
    const terminal = await terminals.run(dir);
    await terminal.type('/');
    // The menu opens on its first eight commands (the rest a scroll away): /exit is among them.
    await terminal.waitForText('/exit');
    await sendLine(terminal, 'help');
    // A line only /help prints: the slash menu lists the commands too.
    const help = await terminal.waitForText('keys: Enter sends');
    for (const name of ['/help', '/clear', '/session', '/exit']) expect(help).toContain(name);
    await sendLine(terminal, '/hlep');
    await terminal.waitForText('unknown command /hlep: did you mean /help?');
    expect(sessionLog(dir).lines.some((line) => line.kind === 'user')).toBe(false);
  });

  it('streams a plain answer from a Chat Completions server as it arrives', async () => {
    const server = await startServer([{ text: 'Streaming from the loopback model, word by word.', hold: true }]);
    const terminal = await terminals.run(makeAgentFolder(), loopbackArgs(server.url));
    await sendLine(terminal, 'hi there');
    await server.held();
    // The first word is on screen while the server still holds the rest back.
    const partial = await terminal.waitForText('Streaming');
    expect(partial).toContain('working');
    expect(partial).not.toContain('word by word.');
    server.release();
    await terminal.waitForText('Streaming from the loopback model, word by word.', { joined: true });
    await terminal.waitForText('✓ completed');
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0].body.messages.at(-1)).toEqual({ role: 'user', content: 'hi there' });
  });

  it('Esc cancels a turn the server holds open, keeping the partial text on screen and in the session', async () => {
    const server = await startServer([{ text: 'Thinking about a long answer', hold: true }, { text: 'Fresh start.' }]);
    const dir = makeAgentFolder();
    const terminal = await terminals.run(dir, loopbackArgs(server.url));
    await sendLine(terminal, 'hello');
    await server.held();
    await terminal.waitForText('Thinking');
    await terminal.press('Escape');
    const canceled = await terminal.waitForText('⊘ canceled');
    expect(canceled).toContain('Thinking');
    const log = JSON.stringify(sessionLog(dir).lines);
    expect(log).toContain('"status":"canceled"');
    expect(log).toContain('Thinking');
    // The chat carries on after a cancel.
    await sendLine(terminal, 'again');
    await terminal.waitForText('Fresh start.');
  });

  it('pastes several lines into the input without sending them, then sends them as one message', async () => {
    const server = await startServer([{ text: 'Got both lines.' }]);
    const terminal = await terminals.run(makeAgentFolder(), loopbackArgs(server.url));
    await terminal.paste('first line\nsecond line');
    await terminal.waitForText('second line');
    expect(server.requests).toHaveLength(0);
    await terminal.press('Enter');
    await terminal.waitForText('Got both lines.');
    expect(server.requests[0].body.messages.at(-1)).toEqual({ role: 'user', content: 'first line\nsecond line' });
  });

  it('resuming shows the earlier transcript, and up recalls what was typed before', async () => {
    const dir = copyExample('demo');
    const first = await terminals.run(dir);
    await sendLine(first, 'deploy the api');
    await first.waitForText('waiting for your reply');
    await first.press('C-d');
    expect(await first.waitForExit()).toBe(0);
    const sessionId = sessionLog(dir).ids[0];
    expect(await first.screen({ joined: true })).toMatch(/Resume this chat with: node \S*auggy\.js run \S+ --session /);

    const second = await terminals.run(dir, ['--continue']);
    const resumed = await second.waitForText('waiting for your reply');
    expect(resumed).toContain(`session ${sessionId} (resumed)`);
    expect(resumed).toContain('› deploy the api');
    expect(resumed).toContain('? Which production service should I deploy: api-west or api-east?');
    await second.press('Up');
    await second.waitForScreen((screen) => inputArea(screen)[0] === '› deploy the api', 'the recalled input');
    await second.press('C-u');
    await sendLine(second, 'api-east');
    await second.waitForText('Deploying that service now', { joined: true });
    expect(sessionLog(dir).ids).toEqual([sessionId]);
  });

  it('Ctrl+C twice on an idle prompt quits with status 0 and says how to resume', async () => {
    const terminal = await terminals.run(copyExample('demo'));
    await sendLine(terminal, 'hello');
    await terminal.waitForText("Hello! I'm the demo agent.");
    // Idle once the turn has ended (its session saved), not when its reply shows.
    await terminal.waitForText('✓ completed');
    await terminal.press('C-c');
    await terminal.waitForText('press Ctrl+C again to quit');
    await terminal.press('C-c');
    expect(await terminal.waitForExit()).toBe(0);
    const screen = await terminal.screen({ joined: true });
    // As typed to start it here (node bin/auggy.js from a clone), so it works pasted back.
    expect(screen).toMatch(/Resume this chat with: node \S*auggy\.js run \S+ --session \S+/);
    expect(screen).not.toMatch(TUI_READY);
  });

  it('re-wraps the transcript when the terminal gets narrower', async () => {
    const long = 'Alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa quebec romeo sierra tango.';
    const server = await startServer([{ text: long }]);
    const terminal = await terminals.run(makeAgentFolder(), loopbackArgs(server.url));
    await sendLine(terminal, 'spell it');
    await terminal.waitForText('✓ completed');
    await terminal.resize(50, 30);
    // Printed again at the new width: every line of the message indented under its marker,
    // which the terminal's own reflow would not do.
    const rewrapped = (screen: string) => {
      const lines = screen.split('\n');
      const start = lines.findIndex((line) => line.startsWith('● Alpha'));
      const end = lines.findIndex((line, index) => index > start && line.trim() === '');
      return start < 0 ? [] : lines.slice(start, end);
    };
    const screen = await terminal.waitForScreen((s) => {
      const lines = rewrapped(s);
      return lines.length > 2 && lines.slice(1).every((line) => line.startsWith('  '));
    }, 'the message re-wrapped');
    expect(
      rewrapped(screen)
        .map((line) => line.slice(2).trim())
        .join(' '),
    ).toBe(long);
    expect(screen.match(/Fixture · /g)).toHaveLength(1);
  });
});
