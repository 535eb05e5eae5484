import { describe, expect, it } from 'vitest';
import { auggyTerminals, sendLine } from '../../helpers/auggy-terminal.js';
import { boardFolder } from '../../helpers/board-fixture.js';
import { chatServersPerTest } from '../../helpers/chat-server.js';
import { tmuxAvailable } from '../../helpers/tmux.js';

// Servers first: after-each hooks run last-registered first, so the chats end before their servers close.
const startServer = chatServersPerTest();
const terminals = auggyTerminals();

describe.skipIf(!tmuxAvailable())('the board in a real terminal', () => {
  it("the agent's write shows in its row, and /board set works while the server holds the turn open", async () => {
    const server = await startServer((_request, index) =>
      index === 0
        ? { toolCalls: [{ name: 'board_write', args: { line: 'progress', text: 'step 1 of 2 done' } }] }
        : { text: 'Still working on it.', hold: true },
    );
    const terminal = await terminals.run(boardFolder(), ['--model', 'openai-compatible:test', '--base-url', server.url]);
    await terminal.waitForText(/notes\s+both\s+remember the changelog/);
    await sendLine(terminal, 'go');
    await server.held();
    await terminal.waitForText(/progress\s+agent\s+step 1 of 2 done/);
    expect(await terminal.screen()).toContain('working');

    await sendLine(terminal, '/board set queue also update the README');
    await terminal.waitForText(/queue\s+you\s+also update the README/);
    await terminal.waitForText('queue set; the agent sees it at its next step.');
    await sendLine(terminal, '/board set progress done');
    await terminal.waitForText('Not written: line "progress" belongs to the agent (owner: agent)', { joined: true });
    expect(await terminal.screen()).toContain('working');

    server.release();
    await terminal.waitForText('✓ completed');
  });
});
