import { afterEach, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { auggyPrint } from '../../helpers/auggy-cli.js';
import { startChatServer, type ChatServer } from '../../helpers/chat-server.js';
import { describeWithPostgres, usePostgres } from '../../helpers/postgres.js';
import { goalFolder, isGoalEvaluator, model, verdict } from './goal-model.js';

const pg = usePostgres();

let chat: ChatServer | undefined;
afterEach(async () => {
  await chat?.close();
  chat = undefined;
});

interface Summary {
  sessionId: string;
  goal: { status: string; turns: number } | null;
  turns: unknown[];
}

describeWithPostgres('goal on the PostgreSQL store', () => {
  it('a paused goal is kept in the database and restored paused after a restart; /goal resume carries it to the end', async () => {
    const { url, database } = await pg.freshDatabase();
    chat = await startChatServer(
      model((turn) => ({ text: `Turn ${turn + 1}.` }), [{ text: 'not json' }, verdict(false, 'Half done.'), verdict(true, 'Done now.')]),
    );
    const dir = goalFolder();
    const first = await auggyPrint(dir, chat.url, '--store', url, '--goal', 'finish the report', '--output', 'json');
    expect(first.exitCode).toBe(1);
    const { sessionId } = JSON.parse(first.stdout) as Summary;
    expect(existsSync(join(dir, '.auggy', 'sessions'))).toBe(false);
    const saved = await pg
      .cluster()
      .query<{ value: { status: string; condition: string } }>(database, "SELECT value FROM auggy_state WHERE name = 'goal.json'");
    expect(saved.map((row) => row.value)).toEqual([expect.objectContaining({ status: 'paused', condition: 'finish the report' })]);

    const shown = await auggyPrint(dir, chat.url, '--store', url, '--session', sessionId, '/goal');
    expect(shown.stdout).toContain('Goal (paused: /goal resume goes on): finish the report');
    const before = chat.requests.length;
    const message = await auggyPrint(dir, chat.url, '--store', url, '--session', sessionId, 'how is it going?', '--output', 'json');
    expect(message.exitCode).toBe(0);
    // Paused: the message is one turn, judged by nobody.
    expect(chat.requests.slice(before).filter(isGoalEvaluator)).toHaveLength(0);
    expect(chat.requests.length - before).toBe(1);

    const resumed = await auggyPrint(dir, chat.url, '--store', url, '--session', sessionId, '/goal resume', '--output', 'json');
    expect(resumed.exitCode).toBe(0);
    expect((JSON.parse(resumed.stdout) as Summary).goal).toMatchObject({ status: 'achieved', turns: 2 });
  });

  it('an achieved goal is not restored: the next message in the session starts no loop', async () => {
    const { url } = await pg.freshDatabase();
    chat = await startChatServer(model(() => ({ text: 'Done.' }), [verdict(true, 'It is done.')]));
    const dir = goalFolder();
    const first = await auggyPrint(dir, chat.url, '--store', url, '--goal', 'do it', '--output', 'json');
    expect(first.exitCode).toBe(0);
    const { sessionId } = JSON.parse(first.stdout) as Summary;
    const before = chat.requests.length;
    const next = await auggyPrint(dir, chat.url, '--store', url, '--session', sessionId, 'thanks', '--output', 'json');
    expect(next.exitCode).toBe(0);
    expect((JSON.parse(next.stdout) as Summary).goal).toBeNull();
    expect(chat.requests.length - before).toBe(1);
  });
});
