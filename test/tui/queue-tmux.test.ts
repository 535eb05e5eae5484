import { describe, expect, it } from 'vitest';
import { makeAgentFolder } from '../helpers/agent-fixture.js';
import { auggyTerminals, sendLine } from '../helpers/auggy-terminal.js';
import { chatServersPerTest, type ChatServer } from '../helpers/chat-server.js';
import { tmuxAvailable, type Terminal } from '../helpers/tmux.js';

// Servers first: after-each hooks run last-registered first, so the chats end before their servers close.
const startServer = chatServersPerTest();
const terminals = auggyTerminals();

const loopbackArgs = (url: string) => ['--model', 'openai-compatible:test', '--base-url', url];

/** The rows under the input's lower rule: the status line alone, unless it wrapped. */
function statusRows(screen: string): string[] {
  const lines = screen.split('\n');
  const lastRule = lines.findLastIndex((line) => line.startsWith('──'));
  return lines.slice(lastRule + 1).filter((line) => line.trim() !== '');
}

/** The lines between the rules around the input. */
function inputArea(screen: string): string[] {
  const lines = screen.split('\n');
  const rules = lines.flatMap((line, index) => (line.startsWith('──') ? [index] : []));
  return rules.length < 2 ? [] : lines.slice(rules.at(-2)! + 1, rules.at(-1)).map((line) => line.trimEnd());
}

async function statusSays(t: Terminal, text: string): Promise<string> {
  return t.waitForScreen((screen) => statusRows(screen).join('\n').includes(text), `the status line saying ${JSON.stringify(text)}`);
}

const lastUserMessage = (request: ChatServer['requests'][number]) => request.body.messages.filter((message) => message.role === 'user').at(-1)?.content;

describe.skipIf(!tmuxAvailable())('messages typed during a turn, in a real terminal', { timeout: 180_000 }, () => {
  it('are queued and shown; Esc removes the newest, ↑ edits it; the rest go as the next turn, the status line one row at 60 columns', async () => {
    const server = await startServer([{ text: 'Hi.' }, { text: 'Working on the first answer', hold: true }, { text: 'Got the queued one.' }]);
    const t = await terminals.run(makeAgentFolder(), loopbackArgs(server.url), { width: 60, height: 30 });
    // A first exchange, so the status line has token counts at its right while the next turn runs.
    await sendLine(t, 'hello');
    await t.waitForText('✓ completed');
    await t.waitForText(/\d+ in · \d+ out tokens/);
    await sendLine(t, 'first question');
    await server.held();
    await t.waitForText('Working');

    await t.type('second message');
    const typing = await statusSays(t, 'Enter queues');
    expect(statusRows(typing)).toHaveLength(1);
    await t.press('Enter');
    await t.waitForText('queued: second message');
    await sendLine(t, 'third message');
    const queued = await t.waitForText('queued: third message');
    expect(queued).toContain('↑ edits the last · Esc removes it');
    // With lines queued and nothing typed, Esc is the queue's: the status line says how to cancel.
    const shown = await statusSays(t, 'Ctrl+C cancels');
    expect(statusRows(shown)).toHaveLength(1);
    expect(statusRows(shown)[0]).toMatch(/working \d+s/);
    expect(statusRows(shown)[0]).toMatch(/\d+ in · \d+ out tokens/);

    await t.press('Escape');
    const removed = await t.waitForScreen((screen) => !screen.includes('queued: third message'), 'the newest line removed');
    expect(removed).toContain('queued: second message');
    expect(statusRows(removed).join('\n')).toMatch(/working \d+s/);

    await t.press('Up');
    await t.waitForScreen((screen) => inputArea(screen)[0] === '› second message' && !screen.includes('queued:'), 'the queued line back in the input');
    await t.type(' (edited)');
    await t.waitForText('second message (edited)');
    await t.press('Enter');
    await t.waitForText('queued: second message (edited)');
    expect(server.requests).toHaveLength(2);

    server.release();
    await t.waitForText('Got the queued one.');
    const done = await t.waitForText('✓ completed');
    expect(done).not.toContain('queued:');
    expect(done).toContain('› second message (edited)');
    expect(server.requests.map(lastUserMessage)).toEqual(['hello', 'first question', 'second message (edited)']);
    expect(JSON.stringify(server.requests[2].body.messages)).not.toContain('third message');
  });
});
