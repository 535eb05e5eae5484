import { describe, expect, it } from 'vitest';
import { copyExample, makeAgentFolder } from '../../helpers/agent-fixture.js';
import { auggyTerminals, sendLine as send } from '../../helpers/auggy-terminal.js';
import { chatServersPerTest, type ReceivedRequest } from '../../helpers/chat-server.js';
import { tmuxAvailable } from '../../helpers/tmux.js';

// The real binary in a real terminal (a private tmux socket per test): keys in with send-keys,
// the screen read with capture-pane until the expected text shows.
// Servers first: after-each hooks run last-registered first, so the chats end before their servers close.
const startServer = chatServersPerTest();
const terminals = auggyTerminals();

const auggyRun = (dir: string, args: string[] = []) => terminals.run(dir, args, { width: 110, height: 34 });

/** The status line: the bottom line of the chat (turn status on the left, indicators on the right). */
function statusLine(screen: string): string {
  return (
    screen
      .split('\n')
      .filter((line) => line.trim() !== '')
      .at(-1) ?? ''
  );
}

describe.skipIf(!tmuxAvailable())('userAsk in the TUI', () => {
  it('the demo: `? ask (1)` after a turn, /ask shows the ask, /ask clear removes the indicator', async () => {
    const terminal = await auggyRun(copyExample('demo'));
    expect(statusLine(await terminal.screen())).not.toContain('? ask');
    await send(terminal, 'deploy the api');
    await terminal.waitForText('user ask in progress: The agent asked which service to deploy', { joined: true });
    // Judged before the turn ends, and still there once it has.
    const asked = await terminal.waitForScreen(
      (s) => statusLine(s).includes('? ask (1)') && statusLine(s).includes('input-required'),
      '? ask (1) on the status line',
    );
    expect(statusLine(asked)).toMatch(/\? input-required\s+\? ask \(1\)\s+\d+ in · \d+ out tokens$/);

    await send(terminal, '/ask');
    await terminal.waitForText('Ask (active, 1 turn evaluated): deploy the api');
    await terminal.waitForText('Last evaluation: in progress: The agent asked which service to deploy', { joined: true });

    await send(terminal, '/ask clear');
    await terminal.waitForText('Ask cleared: no request is tracked until your next message.');
    const cleared = await terminal.waitForScreen((s) => !statusLine(s).includes('? ask'), 'the indicator gone');
    expect(statusLine(cleared)).not.toContain('? ask');
  });

  it('the answer refines the ask and achieves it: the indicator goes away', async () => {
    const terminal = await auggyRun(copyExample('demo'));
    await send(terminal, 'deploy the api');
    // The ask is judged before the turn ends: the answer goes once the turn has ended too.
    await terminal.waitForScreen((s) => statusLine(s).includes('? ask (1)') && statusLine(s).includes('input-required'), '? ask (1) after the turn');
    await send(terminal, 'api-west');
    await terminal.waitForText('user ask achieved: The service was built, pushed and rolled out', { joined: true });
    const done = await terminal.waitForScreen((s) => statusLine(s).includes('completed'), 'the turn completed');
    expect(statusLine(done)).not.toContain('? ask');
    await send(terminal, '/ask');
    await terminal.waitForText('Ask (closed: achieved): Deploy api-west to production.');
  });

  it('against a Chat Completions server: in progress counts up, /ask <text> replaces the ask', async () => {
    let judged = 0;
    const server = await startServer((request: ReceivedRequest) => {
      if (request.body.tools) return { text: 'Step done.' };
      judged++;
      return { text: JSON.stringify({ outcome: 'in_progress', reason: `step ${judged} of 3` }) };
    });
    const dir = makeAgentFolder({ augments: ['turnControl', 'userAsk'] });
    const terminal = await auggyRun(dir, ['--model', 'openai-compatible:test', '--base-url', server.url]);
    await send(terminal, 'migrate the database');
    await terminal.waitForText('user ask in progress: step 1 of 3');
    await terminal.waitForScreen((s) => statusLine(s).includes('? ask (1)'), '? ask (1)');
    await send(terminal, 'continue');
    await terminal.waitForText('user ask in progress: step 2 of 3');
    await terminal.waitForScreen((s) => statusLine(s).includes('? ask (2)'), '? ask (2)');
    await send(terminal, '/ask migrate the database and then vacuum it');
    await terminal.waitForText('Ask set: migrate the database and then vacuum it');
    await send(terminal, '/ask');
    const status = await terminal.waitForText('Revisions, oldest first');
    expect(status).toContain('Ask (active, 2 turns evaluated): migrate the database and then vacuum it');
    expect(status).toMatch(/1\. migrate the database\n\s+2\. continue/);
    expect(server.requests.filter((r) => !r.body.tools)).toHaveLength(2);
  });
});
