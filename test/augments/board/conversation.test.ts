import { describe, expect, it } from 'vitest';
import { chatServersPerTest, type ReceivedRequest } from '../../helpers/chat-server.js';
import { boardFolder, openBoardConversation, runCommand, savedBoard, systemPrompt } from './harness.js';

const startServer = chatServersPerTest();

const toolResults = (request: ReceivedRequest) => request.body.messages.filter((message) => message.role === 'tool').map((message) => String(message.content));

describe('the board inside a running Conversation (loopback Chat Completions server)', () => {
  it("the person's /board set while the first response is held open is in the next round's system prompt", async () => {
    const server = await startServer((_request, index) =>
      index === 0 ? { text: 'Checking the board first.', toolCalls: [{ name: 'board_read', args: {} }], hold: true } : { text: 'On it.' },
    );
    const dir = boardFolder();
    const { conversation } = await openBoardConversation(dir, server.url);
    const turn = conversation.runTurn('work through the queue');
    await server.held();
    expect(conversation.isRunning).toBe(true);
    // The input stays usable for board commands while the agent works.
    expect(await runCommand(conversation, 'set queue urgent: fix the login bug')).toEqual({ lines: ['queue set; the agent sees it at its next step.'] });
    server.release();
    const result = await turn;

    expect(result.status).toBe('completed');
    expect(server.requests).toHaveLength(2);
    const [first, second] = server.requests;
    expect(systemPrompt(first)).toContain('<augment id="board">');
    expect(systemPrompt(first)).not.toContain('urgent');
    expect(systemPrompt(second)).toContain(
      "## queue (the person's: read it, do not write it, last written by the person)\nWhat the person wants next.\n> urgent: fix the login bug",
    );
    // No message was sent for it: the person's only message is still the one that started the turn.
    expect(second.body.messages.filter((message) => message.role === 'user').map((message) => message.content)).toEqual(['work through the queue']);
    expect(toolResults(second)[0]).toContain('"text": "urgent: fix the login bug"');
  });

  it('a change made between rounds (while the server answers round one) reaches round two', async () => {
    const dir = boardFolder();
    let conversation: Awaited<ReturnType<typeof openBoardConversation>>['conversation'] | undefined;
    const server = await startServer((_request, index) => {
      if (index === 0) {
        // The person edits the board while the model is still answering the first request.
        void runCommand(conversation!, 'set notes ship on friday');
        return { toolCalls: [{ name: 'board_write', args: { line: 'progress', text: 'read the queue' } }] };
      }
      return { text: 'Noted.' };
    });
    ({ conversation } = await openBoardConversation(dir, server.url));
    await conversation.runTurn('go');
    expect(server.requests).toHaveLength(2);
    expect(systemPrompt(server.requests[0])).toContain('> remember the changelog');
    expect(systemPrompt(server.requests[1])).toContain('## notes (shared: you and the person both write it, last written by the person)\n> ship on friday');
    expect(systemPrompt(server.requests[1])).toContain('## progress (yours: only you write it, last written by you)\n> read the queue');
  });

  it('events: STATE_SNAPSHOT right after RUN_STARTED, then STATE_DELTA and board.changed as the agent writes', async () => {
    const server = await startServer([{ toolCalls: [{ name: 'board_write', args: { line: 'progress', text: '1 of 2' } }] }, { text: 'Halfway.' }]);
    const { conversation, events } = await openBoardConversation(boardFolder(), server.url);
    await conversation.runTurn('start');
    const names = events.map((event) => (event.type === 'CUSTOM' ? event.name : event.type));
    expect(names.slice(0, 2)).toEqual(['RUN_STARTED', 'STATE_SNAPSHOT']);
    expect(events[1]).toEqual({
      type: 'STATE_SNAPSHOT',
      snapshot: {
        board: { queue: { owner: 'person', text: '' }, progress: { owner: 'agent', text: '' }, notes: { owner: 'both', text: 'remember the changelog' } },
      },
    });
    const delta = names.indexOf('STATE_DELTA');
    expect(delta).toBeGreaterThan(1);
    expect(names[delta + 1]).toBe('board.changed');
    expect(names.indexOf('RUN_FINISHED')).toBeGreaterThan(delta);
    expect(events[delta]).toMatchObject({
      type: 'STATE_DELTA',
      delta: [{ op: 'add', path: '/board/progress', value: { owner: 'agent', text: '1 of 2', by: 'agent' } }],
    });
  });

  it("the model writing the person's line gets a tool error it can read, and the line is unchanged", async () => {
    const server = await startServer([{ toolCalls: [{ name: 'board_write', args: { line: 'queue', text: 'nothing left' } }] }, { text: 'Understood.' }]);
    const { conversation } = await openBoardConversation(boardFolder(), server.url);
    const result = await conversation.runTurn('tidy up');
    expect(result.toolCalls).toMatchObject([{ name: 'board_write', isError: true }]);
    expect(toolResults(server.requests[1])[0]).toContain('line "queue" belongs to the person (owner: person)');
    expect(conversation.snapshot()).toMatchObject({ board: { queue: { text: '' } } });
  });

  it('a resumed session starts its runs with the board as it was left', async () => {
    const server = await startServer([
      { toolCalls: [{ name: 'board_write', args: { line: 'progress', text: 'done: step 1' } }] },
      { text: 'ok' },
      { text: 'resumed' },
    ]);
    const dir = boardFolder();
    const first = await openBoardConversation(dir, server.url);
    await first.conversation.runTurn('step 1');
    await runCommand(first.conversation, 'set queue step 2 please');
    const id = first.conversation.session.id;

    const again = await openBoardConversation(dir, server.url, id);
    expect(again.conversation.session.resumed).toBe(true);
    await again.conversation.runTurn('continue');
    expect(again.events[1]).toMatchObject({
      type: 'STATE_SNAPSHOT',
      snapshot: {
        board: { progress: { text: 'done: step 1', by: 'agent' }, queue: { text: 'step 2 please', by: 'person' }, notes: { text: 'remember the changelog' } },
      },
    });
    expect(systemPrompt(server.requests[2])).toContain('> step 2 please');
    expect(savedBoard(again.conversation.session)?.lines.progress.text).toBe('done: step 1');
  });
});
