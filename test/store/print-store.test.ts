import { afterEach, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { AUGGY_BIN } from '../helpers/agent-fixture.js';
import { HttpAgent } from '@ag-ui/client';
import { auggyPrint } from '../helpers/auggy-cli.js';
import { boardFolder } from '../helpers/board-fixture.js';
import { startChatServer, type ChatServer } from '../helpers/chat-server.js';
import { describeWithPostgres, usePostgres } from '../helpers/postgres.js';
import { startServe, type ServeProcess } from '../helpers/serve-process.js';

const pg = usePostgres();

let chat: ChatServer | undefined;
let serve: ServeProcess | undefined;
afterEach(async () => {
  serve?.signal('SIGKILL');
  await serve?.exited;
  await chat?.close();
  serve = undefined;
  chat = undefined;
});

const freshStore = () => pg.freshDatabase();

describeWithPostgres('auggy run --print --store', () => {
  it('keeps the session in the database, not the folder, and resumes it from there', async () => {
    const { url, database } = await freshStore();
    chat = await startChatServer([{ text: 'First answer.' }, { text: 'Second answer.' }]);
    const dir = boardFolder();
    const first = await auggyPrint(dir, chat.url, '--store', url, '--output', 'json', '--board', 'queue=ship it', 'remember the number 7');
    expect(first.stderr).toBe('');
    expect(first.exitCode).toBe(0);
    const { sessionId } = JSON.parse(String(first.stdout)) as { sessionId: string };
    expect(existsSync(join(dir, '.auggy', 'sessions'))).toBe(false);

    const second = await auggyPrint(dir, chat.url, '--store', url, '--session', sessionId, 'what was the number?');
    expect(second.exitCode).toBe(0);
    expect(String(second.stdout)).toContain('Second answer.');
    const sent = chat.requests[1].body.messages.filter((message) => message.role !== 'system').map((message) => message.content);
    expect(sent).toEqual(['remember the number 7', 'First answer.', 'what was the number?']);
    const board = await pg
      .cluster()
      .query<{ value: { lines: Record<string, { text: string }> } }>(database, "SELECT value FROM auggy_state WHERE name = 'board.json'");
    expect(board[0].value.lines.queue.text).toBe('ship it');
    expect(existsSync(join(dir, '.auggy', 'sessions'))).toBe(false);
  });

  it('AUGGY_STORE names the store, and --continue finds the newest session there', async () => {
    const { url } = await freshStore();
    chat = await startChatServer([{ text: 'One.' }, { text: 'Two.' }]);
    const dir = boardFolder();
    const env = { OPENAI_API_KEY: '', AUGGY_MODEL: '', AUGGY_BASE_URL: '', AUGGY_STORE: url, NO_COLOR: '1' };
    const run = (...args: string[]) =>
      execa('node', [AUGGY_BIN, 'run', dir, '--print', '--model', 'openai-compatible:test', '--base-url', chat?.url ?? '', ...args], { reject: false, env });
    expect((await run('first')).exitCode).toBe(0);
    const again = await run('--continue', 'second');
    expect(again.exitCode).toBe(0);
    expect(chat.requests[1].body.messages.filter((message) => message.role === 'user').map((message) => message.content)).toEqual(['first', 'second']);
    expect(existsSync(join(dir, '.auggy', 'sessions'))).toBe(false);
  });

  it('is refused at once, exit 2, while a serve run holds the thread', async () => {
    const { url } = await freshStore();
    chat = await startChatServer((_request, index) => (index === 0 ? { text: 'busy', hold: true } : { text: 'free now' }));
    const dir = boardFolder();
    serve = await startServe(dir, ['--store', url, '--model', 'openai-compatible:test', '--base-url', chat.url]);
    const threadId = `thread-${randomUUID()}`;
    const agent = new HttpAgent({ url: `${serve.url}/agent/run`, threadId });
    agent.addMessage({ id: randomUUID(), role: 'user', content: 'take your time' });
    const inFlight = agent.runAgent({ runId: `run-${randomUUID()}` });
    await chat.held();

    const refused = await auggyPrint(dir, chat.url, '--store', url, '--session', threadId, 'interleave?');
    expect(refused.exitCode).toBe(2);
    expect(String(refused.stderr).trim()).toMatch(
      new RegExp(`^auggy: session ${threadId} is in use by another auggy \\(pid ${serve.pid} on [^)]+\\); wait for it or use another session$`),
    );
    chat.release();
    await inFlight;
    const after = await auggyPrint(dir, chat.url, '--store', url, '--session', threadId, 'my turn');
    expect(after.exitCode).toBe(0);
    expect(String(after.stdout)).toContain('free now');
  });

  it('says in one sentence what is wrong with a store it cannot use, exit 2, writing nothing', async () => {
    const dir = boardFolder();
    const wrongKind = await auggyPrint(dir, 'http://127.0.0.1:9/v1', '--store', 'mysql://db/x', 'hi');
    expect(wrongKind.exitCode).toBe(2);
    expect(String(wrongKind.stderr).trim()).toBe(
      'auggy: --store takes a postgres://user@host:port/database URL (got "mysql://db/x"); leave it out to keep sessions in the agent folder',
    );
    const nobody = await auggyPrint(dir, 'http://127.0.0.1:9/v1', '--store', `postgres://auggy:secret@127.0.0.1:${pg.cluster().port + 1}/none`, 'hi');
    expect(nobody.exitCode).toBe(2);
    expect(String(nobody.stderr).trim()).toMatch(
      /^auggy: the session store postgres:\/\/auggy:\*\*\*@127\.0\.0\.1:\d+\/none refused the connection; check that PostgreSQL is running/,
    );
    expect(String(nobody.stderr)).not.toContain('secret');
    const noDatabase = await auggyPrint(dir, 'http://127.0.0.1:9/v1', '--store', pg.cluster().url('missing_db'), 'hi');
    expect(noDatabase.exitCode).toBe(2);
    expect(String(noDatabase.stderr).trim()).toMatch(/has no such database .*create it first/);
    expect(existsSync(join(dir, '.auggy'))).toBe(false);
  });
});
