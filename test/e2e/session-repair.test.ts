import { afterEach, describe, expect, it } from 'vitest';
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeAgentFolder } from '../helpers/agent-fixture.js';
import { auggyPrint } from '../helpers/auggy-cli.js';
import { startChatServer, type ChatServer, type ReceivedRequest } from '../helpers/chat-server.js';
import { transcriptProblems } from '../helpers/transcript-check.js';

let chat: ChatServer | undefined;
afterEach(async () => {
  await chat?.close();
  chat = undefined;
});

function lastUserText(request: ReceivedRequest): string {
  const last = request.body.messages.filter((m) => m.role === 'user').at(-1);
  return typeof last?.content === 'string' ? last.content : '';
}

describe('a session whose last line was cut by a crash', () => {
  it('two more turns keep every message, with one warning in all', async () => {
    chat = await startChatServer((request) => ({ text: `Answer to ${lastUserText(request)}.` }));
    const dir = makeAgentFolder();
    const first = await auggyPrint(dir, chat.url, 'one', '--output', 'json');
    expect(first.exitCode).toBe(0);
    const { sessionId } = JSON.parse(first.stdout) as { sessionId: string };
    const events = join(dir, '.auggy', 'sessions', sessionId, 'events.jsonl');
    // What a crash mid-write leaves: half a line and no newline.
    const cut = '{"kind":"event","turnId":"run_dead","event":{"type":"TEXT_MESSAGE_CON';
    appendFileSync(events, cut);

    const second = await auggyPrint(dir, chat.url, 'two', '--session', sessionId);
    const third = await auggyPrint(dir, chat.url, 'three', '--session', sessionId);
    expect([second.exitCode, third.exitCode]).toEqual([0, 0]);
    expect(third.stdout).toBe('Answer to three.');

    const sent = chat.requests
      .at(-1)
      ?.body.messages.filter((m) => m.role !== 'system')
      .map((m) => `${m.role}: ${String(m.content)}`);
    expect(sent).toEqual(['user: one', 'assistant: Answer to one.', 'user: two', 'assistant: Answer to two.', 'user: three']);
    const warnings = `${second.stderr}${third.stderr}`.split('\n').filter((line) => line !== '');
    expect(warnings).toEqual([
      expect.stringMatching(/^auggy: warning: events\.jsonl of session \S+ ended in a cut-off line \(\d+ bytes, .*\); it was moved to events\.jsonl\.broken$/),
    ]);
    expect(readFileSync(`${events}.broken`, 'utf8')).toBe(`${cut}\n`);
    expect(transcriptProblems(events)).toEqual([]);
    // Every line of the log is whole JSON again.
    for (const line of readFileSync(events, 'utf8').trim().split('\n')) expect(() => JSON.parse(line) as unknown).not.toThrow();
  });
});
