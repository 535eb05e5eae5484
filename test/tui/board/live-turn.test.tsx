import { afterEach, describe, expect, it } from 'vitest';
import { frameWith } from '../../helpers/ink-frames.js';
import { cleanup, render } from 'ink-testing-library';
import { LiveBoardPanel } from '../../../src/hosts/tui/board/board-panel.js';
import { chatServersPerTest } from '../../helpers/chat-server.js';
import { boardFolder, openBoardConversation, runCommand } from '../../helpers/board-fixture.js';

// Registered before the cleanup below, so it runs after it: the chat is unmounted before its server closes.
const startServer = chatServersPerTest();
afterEach(() => {
  cleanup();
});

describe('the board panel on a real conversation', () => {
  it("updates while a turn runs: the agent's write and the person's /board set both show before the turn ends", async () => {
    const server = await startServer((_request, index) =>
      index === 0 ? { toolCalls: [{ name: 'board_write', args: { line: 'progress', text: 'step 1 of 2 done' } }] } : { text: 'Still going.', hold: true },
    );
    const { conversation } = await openBoardConversation(boardFolder(), server.url);
    const { lastFrame } = render(<LiveBoardPanel source={conversation} width={60} />);
    await frameWith(lastFrame, (f) => f.includes('notes    both  remember the changelog'));

    const turn = conversation.runTurn('go');
    await server.held();
    expect(conversation.isRunning).toBe(true);
    await frameWith(lastFrame, (f) => f.includes('progress agent step 1 of 2 done'));

    await runCommand(conversation, 'set queue also update the README');
    await frameWith(lastFrame, (f) => f.includes('queue    you   also update the README'));
    expect(conversation.isRunning).toBe(true);

    server.release();
    expect((await turn).status).toBe('completed');
  });
});
