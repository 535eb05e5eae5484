import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { copyExample, makeAgentFolder } from '../helpers/agent-fixture.js';
import { chatServersPerTest } from '../helpers/chat-server.js';
import { KEY, frameWith, openChat } from './chat-harness.js';
import { folderOf } from '../helpers/session-folder.js';

// Registered before the cleanup below, so it runs after it: the chat is unmounted before its server closes.
const startServer = chatServersPerTest();
afterEach(() => {
  cleanup();
});

/** Generous: a loaded machine is slow, and a timeout here is a failure, not a measurement. */
const WAIT = { timeout: 15_000, interval: 10 };
const loopback = (url: string) => ({ overrides: { model: 'openai-compatible:test', baseURL: url } });
const userEntries = (dir: string) =>
  readFileSync(join(dir, 'events.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { kind: string; text?: string })
    .filter((entry) => entry.kind === 'user')
    .map((entry) => entry.text);

describe('the chat screen', () => {
  it('sends what is typed and shows the answer, then the turn status', async () => {
    const chat = await openChat(copyExample('demo'));
    expect(chat.lastFrame()).toMatch(/^Demo · scripted:demo · session \S+$/m);
    chat.write('hello');
    await frameWith(chat.lastFrame, '› hello');
    chat.write(KEY.enter);
    const frame = await frameWith(chat.lastFrame, '✓ completed');
    expect(frame).toContain("● Hello! I'm the demo agent.");
    expect(chat.input()).toEqual(['›  Type a message · / for commands']);
    expect(chat.saved).toEqual(['hello']);
  });

  it('edits the line: left, insert, word delete, home', async () => {
    const chat = await openChat(copyExample('demo'));
    chat.write('helo world', ...Array<string>(7).fill(KEY.left), 'l');
    await frameWith(chat.lastFrame, () => chat.input()[0] === '› hello world');
    chat.write(KEY.ctrlA, KEY.ctrlD);
    await frameWith(chat.lastFrame, () => chat.input()[0] === '› ello world');
    chat.write('\u001b[F', KEY.ctrlW);
    await frameWith(chat.lastFrame, () => chat.input()[0] === '› ello');
  });

  it('a question shows the marker and the waiting hint; the reply answers it in the same session', async () => {
    const chat = await openChat(copyExample('demo'));
    chat.write('deploy the api', KEY.enter);
    const asked = await frameWith(chat.lastFrame, 'waiting for your reply');
    expect(asked).toContain('? Which production service should I deploy: api-west or api-east?');
    expect(chat.input()).toEqual(['›  Type your reply', '  waiting for your reply']);
    chat.write('api-west', KEY.enter);
    const done = await frameWith(chat.lastFrame, '✓ completed');
    expect(done).toContain('Deploying that service now');
    expect(done).not.toContain('waiting for your reply');
    expect(userEntries(folderOf(chat.conversation.session))).toEqual(['deploy the api', 'api-west']);
  });

  it('typing / lists the commands, Tab completes, Enter runs the highlighted one', async () => {
    const chat = await openChat(copyExample('demo'));
    chat.write('/');
    const listed = await frameWith(chat.lastFrame, '/compact');
    for (const name of ['/help', '/clear', '/exit']) expect(listed).toContain(name);
    chat.write('se');
    await frameWith(chat.lastFrame, (frame) => !frame.includes('/clear '));
    chat.write(KEY.tab);
    await frameWith(chat.lastFrame, () => chat.input()[0] === '› /session');
    chat.write(KEY.enter);
    const shown = await frameWith(chat.lastFrame, `folder  ${folderOf(chat.conversation.session)}`);
    expect(shown).toContain(`session ${chat.conversation.session.id}`);
    chat.write('/he', KEY.enter);
    await frameWith(chat.lastFrame, 'every command with one line, and the keys');
  });

  it('an unknown command names the nearest, clears the line (↑ brings it back) and sends nothing', async () => {
    const chat = await openChat(copyExample('demo'));
    chat.write('/hlep');
    await frameWith(chat.lastFrame, () => chat.input()[0] === '› /hlep');
    chat.write(KEY.enter);
    await frameWith(chat.lastFrame, '✗ unknown command /hlep: did you mean /help?');
    await frameWith(chat.lastFrame, () => chat.input()[0] !== '› /hlep');
    expect(chat.input()[0]).not.toContain('/hlep');
    chat.write(KEY.up);
    await frameWith(chat.lastFrame, () => chat.input()[0] === '› /hlep');
    expect(userEntries(folderOf(chat.conversation.session))).toEqual([]);
  });

  it('augment commands join the list; those allowed run during a turn, the rest queue with messages and go in order', async () => {
    const server = await startServer([{ text: 'Working on it', hold: true }, { text: 'Next.' }]);
    const chat = await openChat(makeAgentFolder(), {
      ...loopback(server.url),
      prepare: (conversation) => {
        vi.spyOn(conversation, 'commands').mockReturnValue([
          { name: 'board', summary: 'show the board', duringTurn: true, run: (args) => ({ lines: [`board: ${args || 'empty'}`] }) },
          { name: 'ask', summary: 'the tracked request', run: () => ({ lines: ['ask: none'] }) },
        ]);
        vi.spyOn(conversation, 'indicators').mockReturnValue(['? ask (1)']);
      },
    });
    expect(chat.lastFrame()).toMatch(/ready\s+\? ask \(1\)/);
    chat.write('hello', KEY.enter);
    await server.held();
    await frameWith(chat.lastFrame, '● Working');
    chat.write('/board deploy: api', KEY.enter);
    await frameWith(chat.lastFrame, 'board: deploy: api');
    chat.write('/ask', KEY.enter);
    await frameWith(chat.lastFrame, 'queued: /ask');
    chat.write('second message', KEY.enter);
    const queued = await frameWith(chat.lastFrame, 'queued: second message');
    expect(queued).not.toContain('ask: none');
    expect(chat.input()[0]).toBe('›  Type a message · / for commands');
    expect(chat.saved).toEqual(['hello', '/board deploy: api', '/ask', 'second message']);
    server.release();
    const done = await frameWith(chat.lastFrame, 'Next.');
    // The command first, then the message as the next turn.
    expect(done.indexOf('ask: none')).toBeGreaterThan(done.indexOf('● Working on it'));
    expect(done.indexOf('› second message')).toBeGreaterThan(done.indexOf('ask: none'));
    await frameWith(chat.lastFrame, (frame) => frame.includes('✓ completed') && !frame.includes('queued:'));
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1].body.messages.at(-1)).toEqual({ role: 'user', content: 'second message' });
  });

  it('queued messages go one turn each, in order, each once the one before has ended', async () => {
    const server = await startServer([{ text: 'One', hold: true }, { text: 'Two.' }, { text: 'Three.' }]);
    const chat = await openChat(makeAgentFolder(), loopback(server.url));
    chat.write('first', KEY.enter);
    await server.held();
    chat.write('second', KEY.enter, 'third', KEY.enter);
    await frameWith(chat.lastFrame, 'queued: third');
    server.release();
    await frameWith(chat.lastFrame, (frame) => frame.includes('Three.') && frame.includes('✓ completed'));
    expect(server.requests.map((request) => request.body.messages.filter((message) => message.role === 'user').map((message) => message.content))).toEqual([
      ['first'],
      ['first', 'second'],
      ['first', 'second', 'third'],
    ]);
    await chat.conversation.session.flush();
    expect(userEntries(folderOf(chat.conversation.session))).toEqual(['first', 'second', 'third']);
  });

  it('Esc with lines queued and an empty line removes the newest; with the queue empty it cancels, and the menu closes first', async () => {
    const server = await startServer([{ text: 'Thinking about it', hold: true }, { text: 'Kept one.' }]);
    const chat = await openChat(makeAgentFolder(), loopback(server.url));
    chat.write('hello', KEY.enter);
    await server.held();
    chat.write('keep me', KEY.enter);
    await frameWith(chat.lastFrame, 'queued: keep me');
    chat.write('drop me', KEY.enter);
    await frameWith(chat.lastFrame, 'queued: drop me');
    chat.write('/');
    await frameWith(chat.lastFrame, '/compact');
    chat.write(KEY.escape);
    await frameWith(chat.lastFrame, (frame) => !frame.includes('/compact'));
    chat.write(KEY.backspace);
    await frameWith(chat.lastFrame, () => chat.input()[0] === '›  Type a message · / for commands');
    expect(chat.lastFrame()).toContain('queued: drop me');
    chat.write(KEY.escape);
    const removed = await frameWith(chat.lastFrame, (frame) => !frame.includes('queued: drop me'));
    expect(removed).toContain('queued: keep me');
    expect(removed).toContain('working');
    // A cancel keeps the queue: what is left goes once the canceled turn has ended.
    chat.write(KEY.ctrlC);
    const done = await frameWith(chat.lastFrame, 'Kept one.');
    expect(done).toContain('⊘ canceled');
    expect(server.requests.map((request) => request.body.messages.at(-1)?.content)).toEqual(['hello', 'keep me']);
  });

  it('a queued /clear runs when the turn ends, and the message queued after it goes to the new conversation', async () => {
    const server = await startServer([{ text: 'Thinking about it', hold: true }, { text: 'Fresh.' }]);
    const chat = await openChat(makeAgentFolder(), loopback(server.url));
    chat.write('hello', KEY.enter);
    await server.held();
    chat.write('/clear', KEY.enter, 'after clear', KEY.enter);
    await frameWith(chat.lastFrame, 'queued: after clear');
    expect(chat.lastFrame()).toContain('queued: /clear');
    server.release();
    await frameWith(chat.lastFrame, (frame) => frame.includes('new conversation: session ') && frame.includes('Fresh.'));
    const users = server.requests[1].body.messages.filter((message) => message.role === 'user').map((message) => message.content);
    expect(users).toEqual(['after clear']);
  });

  it('↑ on an empty line takes the newest queued line back into the input; Enter queues it again', async () => {
    const server = await startServer([{ text: 'Thinking about it', hold: true }, { text: 'Edited.' }]);
    const chat = await openChat(makeAgentFolder(), loopback(server.url));
    chat.write('hello', KEY.enter);
    await server.held();
    chat.write('a typo', KEY.enter);
    await frameWith(chat.lastFrame, 'queued: a typo');
    chat.write(KEY.up);
    await frameWith(chat.lastFrame, (frame) => chat.input()[0] === '› a typo' && !frame.includes('queued:'));
    chat.write(KEY.backspace, KEY.backspace, KEY.backspace, KEY.backspace, 'fix', KEY.enter);
    await frameWith(chat.lastFrame, 'queued: a fix');
    server.release();
    await frameWith(chat.lastFrame, 'Edited.');
    expect(server.requests[1].body.messages.at(-1)).toEqual({ role: 'user', content: 'a fix' });
  });

  it("a turn that ends with the agent's question is answered by the first queued message", async () => {
    const server = await startServer([
      { toolCalls: [{ name: 'request_input', args: { prompt: 'Which service: api-west or api-east?' } }], hold: true },
      { text: 'Deploying api-west.' },
    ]);
    const chat = await openChat(makeAgentFolder(), loopback(server.url));
    chat.write('deploy the api', KEY.enter);
    await server.held();
    chat.write('api-west', KEY.enter);
    await frameWith(chat.lastFrame, 'queued: api-west');
    server.release();
    await frameWith(chat.lastFrame, 'Deploying api-west.');
    await chat.conversation.session.flush();
    expect(userEntries(folderOf(chat.conversation.session))).toEqual(['deploy the api', 'api-west']);
  });

  it('a questionnaire on screen holds the queue: the form is answered by the person, the queued message goes after the turn', async () => {
    const form = { prompt: 'A detail first.', fields: [{ name: 'environment', question: 'Which environment?', type: 'text' }] };
    const server = await startServer([
      { text: 'Let me ask you.', toolCalls: [{ name: 'ask_user', args: form }], hold: true },
      { text: 'Noted the environment.' },
      { text: 'And the later one.' },
    ]);
    const chat = await openChat(makeAgentFolder({ augments: ['turnControl', 'questions'] }), loopback(server.url));
    chat.write('plan it', KEY.enter);
    await server.held();
    chat.write('a later message', KEY.enter);
    await frameWith(chat.lastFrame, 'queued: a later message');
    server.release();
    const asked = await frameWith(chat.lastFrame, 'Which environment?');
    expect(asked).toContain('queued: a later message');
    expect(asked).toContain('sent once the question is answered and the turn ends');
    expect(server.requests).toHaveLength(1);
    chat.write('staging', KEY.enter);
    await frameWith(chat.lastFrame, 'And the later one.');
    const toolResult = server.requests[1].body.messages.find((message) => message.role === 'tool');
    expect(JSON.stringify(toolResult?.content)).toContain('staging');
    expect(JSON.stringify(toolResult?.content)).not.toContain('a later message');
    expect(server.requests[2].body.messages.at(-1)).toEqual({ role: 'user', content: 'a later message' });
  });

  it('Esc cancels a running turn; the partial text stays and the status says canceled', async () => {
    const server = await startServer([{ text: 'Thinking about it', hold: true }]);
    const chat = await openChat(makeAgentFolder(), loopback(server.url));
    chat.write('hello', KEY.enter);
    await server.held();
    await frameWith(chat.lastFrame, 'working');
    await frameWith(chat.lastFrame, 'Thinking');
    chat.write(KEY.escape);
    const frame = await frameWith(chat.lastFrame, '⊘ canceled');
    expect(frame).toContain('● Thinking');
    // The chat draws the end as it is emitted; its line in the log may still be on its way.
    await chat.conversation.session.flush();
    expect(readFileSync(join(folderOf(chat.conversation.session), 'events.jsonl'), 'utf8')).toContain('"status":"canceled"');
  });

  it('Ctrl+C cancels a running turn rather than quitting', async () => {
    const server = await startServer([{ text: 'Thinking about it', hold: true }]);
    const chat = await openChat(makeAgentFolder(), loopback(server.url));
    chat.write('hello', KEY.enter);
    await server.held();
    chat.write(KEY.ctrlC);
    await frameWith(chat.lastFrame, '⊘ canceled');
    expect(chat.quitWith).toEqual([]);
  });

  it('a second Ctrl+C while the turn is still being canceled quits', async () => {
    const server = await startServer([{ text: 'Thinking about it', hold: true }]);
    const chat = await openChat(makeAgentFolder(), loopback(server.url));
    chat.write('hello', KEY.enter);
    await server.held();
    chat.write('\u0003\u0003');
    await vi.waitFor(() => expect(chat.quitWith).toHaveLength(1), WAIT);
    await frameWith(chat.lastFrame, (frame) => !frame.includes('Type a message'));
    expect(readFileSync(join(folderOf(chat.conversation.session), 'events.jsonl'), 'utf8')).toContain('"status":"canceled"');
  });

  it('Ctrl+C twice on an idle prompt quits; the first one keeps the typed line in the history', async () => {
    const chat = await openChat(copyExample('demo'));
    chat.write('half a thought', KEY.ctrlC);
    await frameWith(chat.lastFrame, 'press Ctrl+C again to quit');
    expect(chat.input()[0]).toBe('›  Type a message · / for commands');
    expect(chat.saved).toEqual(['half a thought']);
    chat.write(KEY.ctrlC);
    await vi.waitFor(() => expect(chat.quitWith).toEqual([chat.conversation.session.id]), WAIT);
    await frameWith(chat.lastFrame, (frame) => !frame.includes('Type a message'));
  });

  it('Ctrl+D quits on an empty line only', async () => {
    const chat = await openChat(copyExample('demo'));
    chat.write('x', KEY.left, KEY.ctrlD);
    await frameWith(chat.lastFrame, () => chat.input()[0] === '›  Type a message · / for commands');
    expect(chat.quitWith).toEqual([]);
    chat.write(KEY.ctrlD);
    await vi.waitFor(() => expect(chat.quitWith).toHaveLength(1), WAIT);
  });

  it('/exit quits', async () => {
    const chat = await openChat(copyExample('demo'));
    chat.write('/exit', KEY.enter);
    await vi.waitFor(() => expect(chat.quitWith).toHaveLength(1), WAIT);
  });

  it('/clear starts a fresh session with its own header', async () => {
    const chat = await openChat(copyExample('demo'));
    const before = chat.conversation.session.id;
    chat.write('hello', KEY.enter);
    await frameWith(chat.lastFrame, '✓ completed');
    chat.write('/clear', KEY.enter);
    const frame = await frameWith(chat.lastFrame, 'new conversation: session ');
    const after = /new conversation: session (\S+)/.exec(frame)?.[1] ?? '';
    expect(after).not.toBe(before);
    expect(frame).toContain(`session ${after}`);
    expect(existsSync(join(chat.conversation.agent.dir, '.auggy', 'sessions', after, 'events.jsonl'))).toBe(true);
    // The next message goes to the new session.
    chat.write('hello', KEY.enter);
    await frameWith(chat.lastFrame, (f) => f.split('new conversation')[1]?.includes('✓ completed') ?? false);
    chat.write('/session', KEY.enter);
    await frameWith(chat.lastFrame, `session ${after}\n`);
  });

  it('up and down walk the input history given at start', async () => {
    const chat = await openChat(copyExample('demo'), { history: ['first', 'second'] });
    chat.write('draft', KEY.up);
    await frameWith(chat.lastFrame, () => chat.input()[0] === '› second');
    chat.write(KEY.up);
    await frameWith(chat.lastFrame, () => chat.input()[0] === '› first');
    chat.write(KEY.down, KEY.down);
    await frameWith(chat.lastFrame, () => chat.input()[0] === '› draft');
  });

  it('a paste of several lines stays in the input until Enter', async () => {
    const chat = await openChat(copyExample('demo'));
    chat.write('\u001b[200~one\rtwo\u001b[201~');
    await frameWith(chat.lastFrame, () => chat.input().join('\n') === '› one\n  two');
    chat.write(KEY.enter);
    await frameWith(chat.lastFrame, '✓ completed');
    expect(userEntries(folderOf(chat.conversation.session))).toEqual(['one\ntwo']);
  });

  it('shows warnings from the kernel as lines', async () => {
    const chat = await openChat(copyExample('demo'));
    chat.warn('session not saved: the disk is full');
    await frameWith(chat.lastFrame, '! session not saved: the disk is full');
  });

  it('a resumed session shows its transcript and waits for the answer to its open question', async () => {
    const dir = copyExample('demo');
    const first = await openChat(dir);
    first.write('deploy the api', KEY.enter);
    await frameWith(first.lastFrame, 'waiting for your reply');
    first.unmount();
    const chat = await openChat(dir, { choice: { continueLatest: true } });
    const frame = chat.lastFrame();
    expect(frame).toContain(`session ${first.conversation.session.id} (resumed)`);
    expect(frame).toContain('› deploy the api');
    expect(frame).toContain('? Which production service should I deploy');
    expect(frame).toContain('waiting for your reply');
  });
});

describe('the chat keys', () => {
  it('two Ctrl+C in one chunk of input still quit', async () => {
    const chat = await openChat(copyExample('demo'));
    chat.write('\u0003\u0003');
    await vi.waitFor(() => expect(chat.quitWith).toHaveLength(1), WAIT);
  });

  it('Alt+Enter and a backslash before Enter add a line instead of sending', async () => {
    const chat = await openChat(copyExample('demo'));
    chat.write('one', '\u001b\r', 'two\\', KEY.enter, 'three');
    await frameWith(chat.lastFrame, () => chat.input().join('\n') === '› one\n  two\n  three');
    expect(userEntries(folderOf(chat.conversation.session))).toEqual([]);
  });

  it('// sends a message that starts with a slash', async () => {
    const chat = await openChat(copyExample('demo'));
    chat.write('//etc/hosts is odd', KEY.enter);
    await frameWith(chat.lastFrame, '✓ completed');
    expect(userEntries(folderOf(chat.conversation.session))).toEqual(['/etc/hosts is odd']);
  });

  it('Esc closes the command list until the text changes', async () => {
    const chat = await openChat(copyExample('demo'));
    chat.write('/');
    await frameWith(chat.lastFrame, '/compact');
    chat.write(KEY.escape);
    await frameWith(chat.lastFrame, (frame) => !frame.includes('/compact'));
    chat.write('s');
    await frameWith(chat.lastFrame, '/session');
  });

  it('Enter on a bare slash runs nothing, unless a command was picked with the arrows', async () => {
    // A folder with no augment commands: the list is away, back, clear, compact, exit, help, session.
    const chat = await openChat(makeAgentFolder());
    const session = chat.conversation.session.id;
    chat.write('/', KEY.enter);
    await frameWith(chat.lastFrame, 'type a command name after the slash; /help lists them');
    expect(chat.lastFrame()).not.toContain('new conversation: session');
    expect(chat.lastFrame()).toContain(`session ${session}`);
    chat.write(KEY.down, KEY.down, KEY.down, KEY.down, KEY.enter);
    await frameWith(chat.lastFrame, '/exit ');
    await vi.waitFor(() => expect(chat.quitWith).toEqual([session]), WAIT);
  });

  it('up and down move through the command list while it is open', async () => {
    const chat = await openChat(makeAgentFolder());
    chat.write('/', KEY.down, KEY.down, KEY.down, KEY.down, KEY.down, KEY.tab);
    // The list is alphabetical: away, back, clear, compact, exit, help, session.
    await frameWith(chat.lastFrame, () => chat.input()[0] === '› /help');
  });
});
