import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { copyExample } from '../helpers/agent-fixture.js';
import { EventReader, postRun, readEvents, runInput, textOf } from '../helpers/agui-events.js';
import { ServeScope, startServe } from '../helpers/serve-process.js';
import { startChatServer, type ChatServer } from '../helpers/chat-server.js';

const scope = new ServeScope();
let chat: ChatServer | undefined;
afterEach(async () => {
  await scope.stop();
  await chat?.close();
  chat = undefined;
});

function sessionDir(dir: string, threadId: string): string {
  return join(dir, '.auggy', 'sessions', threadId);
}

function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, 'utf8')) as unknown;
}

describe('what a serve run leaves in its session folder', () => {
  it('the state files hold what the run did, whole, and no temp file or lock is left', async () => {
    const dir = copyExample('demo');
    const serve = scope.adopt(await startServe(dir));
    const events = await readEvents(await postRun(serve.url, runInput('thread-files', 'hello')));
    expect(events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', result: { status: 'completed' } });

    const folder = sessionDir(dir, 'thread-files');
    expect(readdirSync(folder).sort()).toEqual(['board.json', 'events.jsonl', 'user_ask.json']);
    expect(readJson(join(folder, 'board.json'))).toMatchObject({ version: 1, lines: { progress: { text: 'ready: waiting for a request', by: 'agent' } } });
    // The ask was written when the message came and again when the evaluator judged the turn.
    expect(readJson(join(folder, 'user_ask.json'))).toMatchObject({ text: 'hello', active: false });
    for (const line of readFileSync(join(folder, 'events.jsonl'), 'utf8').trim().split('\n')) expect(() => JSON.parse(line) as unknown).not.toThrow();
  });

  it('an ask that cannot be saved is a warning in the server log, and the thread goes on', async () => {
    const dir = copyExample('demo');
    const serve = scope.adopt(await startServe(dir));
    expect((await readEvents(await postRun(serve.url, runInput('thread-blocked', 'hello')))).at(-1)).toMatchObject({ type: 'RUN_FINISHED' });
    // A folder in the way of user_ask.json: the next run's write of the ask is renamed onto it, which fails.
    const folder = sessionDir(dir, 'thread-blocked');
    rmSync(join(folder, 'user_ask.json'));
    mkdirSync(join(folder, 'user_ask.json'));
    writeFileSync(join(folder, 'user_ask.json', 'in-the-way'), 'x');
    const blocked = await readEvents(await postRun(serve.url, runInput('thread-blocked', 'deploy the api')));
    expect(blocked.at(-1)).toMatchObject({ type: 'RUN_FINISHED', result: { status: 'input-required' } });
    expect(await serve.waitForStderr(/user_ask\.json could not be written/)).toMatch(
      /thread thread-blocked: userAsk: the ask was not saved: .*user_ask\.json could not be written/,
    );
    expect(readdirSync(folder).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    // Once the way is clear the ask is saved again.
    rmSync(join(folder, 'user_ask.json'), { recursive: true });
    expect((await readEvents(await postRun(serve.url, runInput('thread-blocked', 'west')))).at(-1)).toMatchObject({
      type: 'RUN_FINISHED',
      result: { status: 'completed' },
    });
    expect(readJson(join(folder, 'user_ask.json'))).toMatchObject({ text: 'Deploy api-west to production.' });
  });

  it('kill -9 of the server mid-reply leaves a readable session that the next server resumes', async () => {
    chat = await startChatServer([{ text: 'This reply never finishes because the server is killed.', hold: true }, { text: 'Back again.' }]);
    const dir = copyExample('demo');
    const args = ['--model', 'openai-compatible:test', '--base-url', chat.url];
    const first = await startServe(dir, args);
    const response = await postRun(first.url, runInput('thread-killed', 'start'));
    await new EventReader(response).until((event) => event.type === 'TEXT_MESSAGE_CONTENT');
    first.signal('SIGKILL');
    await first.exited;

    // Every line already written is whole; the dead server's lock is still there.
    const folder = sessionDir(dir, 'thread-killed');
    const lines = readFileSync(join(folder, 'events.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { kind: string });
    expect(lines.slice(0, 2).map((line) => line.kind)).toEqual(['header', 'user']);
    expect(readdirSync(folder)).toContain('writer.lock');

    const second = scope.adopt(await startServe(dir, args));
    const events = await readEvents(await postRun(second.url, runInput('thread-killed', 'hello again')));
    expect(events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', result: { status: 'completed' } });
    expect(textOf(events)).toContain('Back again.');
    // The lock of the killed process was taken over, and the model saw the first message.
    expect(chat.requests[1].body.messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['start', 'hello again']);
    expect(second.stderr()).toMatch(/no longer running; it was taken over/);
  });

  it('kill -9 of the server while new threads start leaves no lock that blames a process that is not there: after a restart every thread runs at once', async () => {
    const dir = copyExample('demo');
    const first = await startServe(dir);
    const threads = Array.from({ length: 100 }, (_, index) => `thread-start-${index}`);
    const started = threads.map((threadId) => postRun(first.url, runInput(threadId, 'hello')).catch(() => undefined));
    // Killed the moment the first run's lock appears: the other runs are opening their sessions and taking theirs.
    const lockSeen = () => threads.some((threadId) => existsSync(join(sessionDir(dir, threadId), 'writer.lock')));
    while (!lockSeen()) await new Promise((resolve) => setImmediate(resolve));
    first.signal('SIGKILL');
    await first.exited;
    await Promise.all(started);
    const locks = threads.filter((threadId) => existsSync(join(sessionDir(dir, threadId), 'writer.lock')));

    const second = scope.adopt(await startServe(dir));
    const answers = await Promise.all(threads.map((threadId) => postRun(second.url, runInput(threadId, 'hello again'))));
    const refused = await Promise.all(answers.filter((answer) => answer.status !== 200).map(async (answer) => `${answer.status} ${await answer.text()}`));
    expect(refused).toEqual([]);
    for (const answer of answers) expect((await readEvents(answer)).at(-1)).toMatchObject({ type: 'RUN_FINISHED' });
    // The locks the dead server left named it, so they were taken over, with a notice.
    expect(locks.length).toBeGreaterThan(0);
    expect(await second.waitForStderr(/no longer running; it was taken over/)).toContain(`auggy pid ${first.pid}`);
  });
});
