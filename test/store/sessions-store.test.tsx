import { afterEach, expect, it, vi } from 'vitest';
import { cleanup, render } from 'ink-testing-library';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { AUGGY_BIN, copyExample } from '../helpers/agent-fixture.js';
import { describeWithPostgres, usePostgres } from '../helpers/postgres.js';
import { tempDir } from '../helpers/temp-dir.js';
import { KEY, frameWith, openChat } from '../tui/chat-harness.js';
import { CLEAN_MODEL_ENV, TUI_READY, sendLine } from '../helpers/auggy-terminal.js';
import { openTerminal, tmuxAvailable, type Terminal } from '../helpers/tmux.js';
import { SessionPicker } from '../../src/hosts/tui/session-picker.js';
import { openingItems } from '../../src/hosts/tui/run-chat.js';
import { loadRunnableAgent, openAgentStore, openConversation } from '../../src/hosts/open-conversation.js';
import { openPgStore } from '../../src/session/postgres/pg-store.js';
import { folderStore } from '../../src/session/folder-store.js';
import type { SessionEntry } from '../../src/session/entries.js';
import type { SessionSummary } from '../../src/session/session-summary.js';
import type { SessionStore } from '../../src/session/store.js';

const pg = usePostgres();
const DEMO_ID = 'aug1_5f0c2a4e-8d3b-4c71-9a26-3e8b1d7f4c90';
const CLEAN_ENV = { OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', AUGGY_MODEL: '', AUGGY_BASE_URL: '', AUGGY_API_KEY: '', AUGGY_STORE: '', NO_COLOR: '1' };

const opened: SessionStore[] = [];
const terminals: Terminal[] = [];
afterEach(async () => {
  cleanup();
  await Promise.all(terminals.splice(0).map((terminal) => terminal.close()));
  await Promise.all(opened.splice(0).map((store) => store.close()));
});

/** The built binary run from `cwd`, as a person would start it there. */
function auggyIn(cwd: string, args: string[], env: Record<string, string> = {}) {
  return execa('node', [AUGGY_BIN, ...args], { cwd, reject: false, env: { ...CLEAN_ENV, ...env } });
}

/** The demo's two sessions: one completed ("hello"), one waiting for an answer ("deploy the api"). */
async function twoSessions(dir: string, store: string[]) {
  expect((await auggyIn(dir, ['-p', 'hello', ...store])).exitCode).toBe(0);
  expect((await auggyIn(dir, ['-p', 'deploy the api', ...store])).exitCode).toBe(3);
}

/** A summary without what differs between two runs of the same thing: the id and the times. */
function shape(summary: SessionSummary) {
  const { id, createdAt, updatedAt, ...rest } = summary;
  expect(id).toMatch(/^\d{8}-\d{6}-[0-9a-f]{6}$/);
  expect(Date.parse(updatedAt)).not.toBeNaN();
  expect(createdAt === undefined || !Number.isNaN(Date.parse(createdAt))).toBe(true);
  return rest;
}

describeWithPostgres('auggy sessions --store', () => {
  it('lists the sessions run --print --store made, in the text and --json of the folder listing, and writes no .auggy/sessions', async () => {
    const { url } = await pg.freshDatabase();
    const inStore = copyExample();
    const inFolder = copyExample();
    await twoSessions(inStore, ['--store', url]);
    await twoSessions(inFolder, []);
    expect(existsSync(join(inStore, '.auggy', 'sessions'))).toBe(false);

    const json = await auggyIn(inStore, ['sessions', '--store', url, '--json']);
    expect(json.stderr).toBe('');
    expect(json.exitCode).toBe(0);
    const fromStore = JSON.parse(json.stdout) as SessionSummary[];
    const fromFolder = JSON.parse((await auggyIn(inFolder, ['sessions', '--json'])).stdout) as SessionSummary[];
    expect(fromStore.map(shape)).toEqual(fromFolder.map(shape));
    expect(fromStore.map((s) => [s.ended, s.firstMessage, s.messages])).toEqual([
      ['input-required', 'deploy the api', 1],
      ['completed', 'hello', 1],
    ]);
    expect(fromStore[0].question).toContain('api-west or api-east');

    const text = await auggyIn(inStore, ['sessions', '--store', url]);
    expect(text.exitCode).toBe(0);
    const rows = text.stdout.split('\n').filter((line) => /^\d{8}-/.test(line));
    expect(rows.map((row) => row.split(' ')[0])).toEqual(fromStore.map((s) => s.id));
    expect(rows[0]).toMatch(/just now\s+waiting for your answer\s+deploy the api$/);
    expect(rows[1]).toMatch(/just now\s+completed\s+hello$/);
    // The hint resumes from the same store, the id right after --resume.
    const hint = text.stdout.match(/^resume one with: (.*)$/m)?.[1] ?? '';
    expect(hint).toBe(`${['node', AUGGY_BIN].join(' ')} run . --resume <id> --store ${url}`);

    // Pasted as printed, with the id filled in and a message added, it resumes that session.
    const resumed = await execa(`${hint.replace('<id>', fromStore[1].id)} -p 'hello again'`, { shell: true, cwd: inStore, reject: false, env: CLEAN_ENV });
    expect(resumed.exitCode).toBe(0);
    const after = JSON.parse((await auggyIn(inStore, ['sessions', '--store', url, '--json'])).stdout) as SessionSummary[];
    expect(after[0]).toMatchObject({ id: fromStore[1].id, firstMessage: 'hello', messages: 2, ended: 'completed' });
    expect(existsSync(join(inStore, '.auggy', 'sessions'))).toBe(false);
  });

  it('AUGGY_STORE names the store; run --resume without a terminal lists the same; another agent in the database sees only its own', async () => {
    const { url } = await pg.freshDatabase();
    const dir = copyExample();
    await twoSessions(dir, ['--store', url]);
    const byFlag = (await auggyIn(dir, ['sessions', '--store', url, '--json'])).stdout;
    const byEnv = await auggyIn(dir, ['sessions', '--json'], { AUGGY_STORE: url });
    expect(byEnv.exitCode).toBe(0);
    expect(byEnv.stdout).toBe(byFlag);
    const ids = (JSON.parse(byFlag) as SessionSummary[]).map((s) => s.id);

    const listed = await auggyIn(dir, ['run', '--resume'], { AUGGY_STORE: url });
    expect(listed.exitCode).toBe(0);
    expect(
      listed.stdout
        .split('\n')
        .filter((line) => /^\d{8}-/.test(line))
        .map((row) => row.split(' ')[0]),
    ).toEqual(ids);
    expect(listed.stdout).toContain('waiting for your answer');

    // The folder's own listing knows nothing of them.
    expect((await auggyIn(dir, ['sessions'])).stdout).toBe('no sessions yet: nothing has been said to this agent here');
    const other = copyExample();
    const yaml = join(other, 'agent.yaml');
    writeFileSync(yaml, readFileSync(yaml, 'utf8').replace(/^id: .*$/m, 'id: aug1_00000000-0000-4000-8000-000000000000'));
    expect((await auggyIn(other, ['sessions', '--store', url])).stdout).toBe('no sessions yet: nothing has been said to this agent here');
    expect(existsSync(join(dir, '.auggy', 'sessions'))).toBe(false);
  });

  it("--continue --store resumes the store's newest session where something was said", async () => {
    const { url, database } = await pg.freshDatabase();
    const dir = copyExample();
    await twoSessions(dir, ['--store', url]);
    // A chat opened and quit, later than both: nothing to continue there, and not listed.
    await pg.cluster().query(
      database,
      `INSERT INTO auggy_sessions (agent_key, id, agent_name, header, updated_at)
       VALUES ($1, '20991231-000000-aaaaaa', 'demo', '{"kind":"header","version":1,"sessionId":"20991231-000000-aaaaaa","agentName":"demo","createdAt":"2099-12-31T00:00:00.000Z"}', now() + interval '1 hour')`,
      [DEMO_ID],
    );
    const [newest] = JSON.parse((await auggyIn(dir, ['sessions', '--store', url, '--json'])).stdout) as SessionSummary[];
    expect(newest.firstMessage).toBe('deploy the api');

    const result = await auggyIn(dir, ['-p', '--continue', '--store', url, 'api-east', '--output', 'json']);
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout).sessionId).toBe(newest.id);
    const after = JSON.parse((await auggyIn(dir, ['sessions', '--store', url, '--json'])).stdout) as SessionSummary[];
    expect(after.map((s) => s.id)).not.toContain('20991231-000000-aaaaaa');
    expect(after[0]).toMatchObject({ id: newest.id, messages: 2, ended: 'completed' });
    expect(existsSync(join(dir, '.auggy', 'sessions'))).toBe(false);
  });

  it('says in one sentence, exit 2, when the store cannot be read, and --help names --store', async () => {
    const dir = copyExample();
    const refused = await auggyIn(dir, ['sessions', '--store', `postgres://auggy:secret@127.0.0.1:${pg.cluster().port + 1}/none`]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr.trim()).toMatch(
      /^auggy: the session store postgres:\/\/auggy:\*\*\*@127\.0\.0\.1:\d+\/none refused the connection; check that PostgreSQL is running[^\n]*$/,
    );
    expect(refused.stderr).not.toContain('secret');
    const wrongKind = await auggyIn(dir, ['sessions', '--store', 'mysql://db/x']);
    expect(wrongKind.exitCode).toBe(2);
    expect(wrongKind.stderr.trim()).toBe(
      'auggy: --store takes a postgres://user@host:port/database URL (got "mysql://db/x"); leave it out to keep sessions in the agent folder',
    );
    const help = await auggyIn(dir, ['sessions', '--help']);
    expect(help.stdout).toMatch(/--store <url>\s+keep sessions in PostgreSQL/);
    expect(help.stdout).toContain('AUGGY_STORE');
    expect(existsSync(join(dir, '.auggy'))).toBe(false);
  });
});

describeWithPostgres("the PostgreSQL store's summaries", () => {
  it("are the folder store's summaries of the same entries: first message, count, ending, question; a NUL does not stop them", async () => {
    const { url } = await pg.freshDatabase();
    const agent = { dir: tempDir('auggy-summaries-'), name: 'fixture', id: 'aug1_11111111-2222-4333-8444-555555555555' };
    const database = await openPgStore({ url, agent, log: () => undefined });
    const folder = folderStore(agent);
    opened.push(database, folder);
    const finished = (status: string, message?: string): SessionEntry => ({
      kind: 'event',
      turnId: 't',
      at: 'now',
      event: { type: 'RUN_FINISHED', threadId: 'x', runId: 't', result: { status, ...(message ? { message } : {}) } } as never,
    });
    const stories: SessionEntry[][] = [
      [
        { kind: 'user', turnId: 't1', text: 'first \u0000 with a NUL', at: 'now' },
        {
          kind: 'event',
          turnId: 't1',
          at: 'now',
          event: { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'a \u0000 and "type":"RUN_FINISHED"' } as never,
        },
        finished('completed'),
      ],
      [
        { kind: 'user', turnId: 't1', text: 'which one?', at: 'now' },
        finished('input-required', 'api-west or api-east?'),
        { kind: 'user', turnId: 't2', text: 'west', at: 'now' },
        { kind: 'event', turnId: 't2', at: 'now', event: { type: 'RUN_ERROR', message: 'boom' } },
      ],
      [{ kind: 'user', turnId: 't1', text: 'cut off', at: 'now' }],
      [{ kind: 'user', turnId: 't1', text: 'asks', at: 'now' }, finished('input-required', 'which service?')],
      [],
    ];
    for (const entries of stories) {
      for (const store of [database, folder]) {
        const session = await store.open({});
        entries.forEach((entry) => session.append(entry));
        await session.close();
      }
    }
    const byMessage = (list: SessionSummary[]) =>
      list.map(({ id: _id, createdAt: _c, updatedAt: _u, ...rest }) => rest).sort((a, b) => a.firstMessage.localeCompare(b.firstMessage));
    const fromDatabase = await database.summaries();
    expect(fromDatabase).toHaveLength(4);
    expect(byMessage(fromDatabase)).toEqual(byMessage(await folder.summaries()));
    expect(byMessage(fromDatabase).find((s) => s.firstMessage === 'which one?')).toMatchObject({ messages: 2, ended: 'failed' });
    expect(byMessage(fromDatabase).find((s) => s.firstMessage === 'asks')).toMatchObject({ ended: 'input-required', question: 'which service?' });
    expect(fromDatabase.map((s) => s.id)).toEqual(await database.list());
  });
});

describeWithPostgres('state files after the lease', () => {
  async function replicas(example: string) {
    const { url, database } = await pg.freshDatabase();
    const target = await loadRunnableAgent(copyExample(example), {}, () => undefined);
    const stores = [await openAgentStore(target, { url }, () => undefined), await openAgentStore(target, { url }, () => undefined)];
    opened.push(...stores);
    return { target, stores, database };
  }

  it("a change another replica saved without a notice reaches this run's ask and board once it holds the lease", async () => {
    const { target, stores, database } = await replicas('demo');
    const first = await openConversation(target, {}, () => undefined, stores[0]);
    await first.runTurn('hello');
    const second = await openConversation(target, { sessionId: first.session.id }, () => undefined, stores[1]);
    expect(second.snapshot()).toMatchObject({ ask: { text: 'hello' } });
    // Written straight into the table, as a replica whose notice was lost would leave it.
    await pg
      .cluster()
      .query(
        database,
        "UPDATE auggy_state SET value = json_build_object('version', 1, 'text', 'deploy api-east', 'active', true, 'revisions', '[]'::json) WHERE name = 'user_ask.json'",
      );
    await pg.cluster().query(
      database,
      `INSERT INTO auggy_state (agent_key, session_id, name, value) VALUES ($1, $2, 'board.json', '{"version":1,"lines":{"queue":{"text":"from elsewhere","by":"person","at":"2026-01-01T00:00:00.000Z"}}}')
       ON CONFLICT (agent_key, session_id, name) DO UPDATE SET value = EXCLUDED.value`,
      [DEMO_ID, first.session.id],
    );
    expect(second.snapshot()).toMatchObject({ ask: { text: 'hello' } });
    const seen = await second.asWriter(async () => second.snapshot());
    expect(seen).toMatchObject({ ask: { text: 'deploy api-east', active: true }, board: { queue: { text: 'from elsewhere' } } });
    await first.session.close();
    await second.session.close();
  });

  it("a workflow one replica moved is where the other's next run starts", async () => {
    const { target, stores } = await replicas('support');
    const first = await openConversation(target, {}, () => undefined, stores[0]);
    expect((await first.runTurn('I lost my card')).status).toBe('input-required');
    const second = await openConversation(target, { sessionId: first.session.id }, () => undefined, stores[1]);
    expect(second.snapshot()).toMatchObject({ workflow: { state: 'verifying' } });
    expect((await first.runTurn('ACC-12345')).status).toBeDefined();
    expect(first.snapshot()).toMatchObject({ workflow: { state: 'triage' } });
    const seen = await second.asWriter(async () => second.snapshot());
    expect(seen).toMatchObject({ workflow: { state: 'triage', visits: { verifying: 1, triage: 1 } } });
    await first.session.close();
    await second.session.close();
  });
});

describeWithPostgres('the chat on a store', () => {
  it("the --resume picker lists the store's sessions and opens the one picked", async () => {
    const { url } = await pg.freshDatabase();
    const dir = copyExample();
    await twoSessions(dir, ['--store', url]);
    const target = await loadRunnableAgent(dir, {}, () => undefined);
    const store = await openAgentStore(target, { url }, () => undefined);
    opened.push(store);
    const sessions = await store.summaries();
    const picked: (string | undefined)[] = [];
    const picker = render(<SessionPicker sessions={sessions} onPick={(id) => picked.push(id)} />);
    const frame = await frameWith(() => picker.lastFrame() ?? '', 'Resume a session');
    expect(
      frame
        .split('\n')
        .filter((line) => /\d{8}-\d{6}-/.test(line))
        .map((line) => line.match(/\d{8}-\d{6}-[0-9a-f]{6}/)?.[0]),
    ).toEqual(sessions.map((s) => s.id));
    picker.stdin.write(KEY.down);
    await frameWith(
      () => picker.lastFrame() ?? '',
      (shown) => /› .*completed\s+hello/.test(shown),
    );
    picker.stdin.write(KEY.enter);
    await frameWith(() => String(picked.length), '1');
    expect(picked).toEqual([sessions[1].id]);
  });

  it('/session names the store, without its password, where a folder session names its folder', async () => {
    const { url } = await pg.freshDatabase();
    const dir = copyExample();
    const withPassword = url.replace('postgres://auggy@', 'postgres://auggy:secret@');
    const target = await loadRunnableAgent(dir, {}, () => undefined);
    const store = await openAgentStore(target, { url: withPassword }, () => undefined);
    opened.push(store);
    const chat = await openChat(dir, { store });
    chat.write('/session', KEY.enter);
    const shown = await frameWith(chat.lastFrame, `store   ${withPassword.replace(':secret@', ':***@')}`);
    expect(shown).toContain(`session ${chat.conversation.session.id}`);
    expect(shown).not.toContain('secret');
    expect(shown).not.toContain('folder  ');
    chat.unmount();
    await chat.conversation.session.close();
    expect(existsSync(join(dir, '.auggy', 'sessions'))).toBe(false);
  });

  it('a long resumed chat says its earlier items are in the store, by session id, not in an events.jsonl', async () => {
    const { url } = await pg.freshDatabase();
    const dir = copyExample();
    const withPassword = url.replace('postgres://auggy@', 'postgres://auggy:secret@');
    const target = await loadRunnableAgent(dir, {}, () => undefined);
    const store = await openAgentStore(target, { url: withPassword }, () => undefined);
    opened.push(store);
    const first = await openConversation(target, {}, () => undefined, store);
    for (const text of ['hello', 'hello again', 'and once more']) await first.runTurn(text);
    await first.session.close();
    const resumed = await openConversation(target, { sessionId: first.session.id }, () => undefined, store);
    const { items } = openingItems(resumed, 2);
    const note = items.find((item) => item.kind === 'system');
    const text = note?.kind === 'system' ? note.text : '';
    expect(text).toMatch(/^… \d+ earlier items are not shown; /);
    expect(text.endsWith(`the whole session is in ${url.replace('postgres://auggy@', 'postgres://auggy:***@')}, session ${first.session.id}`)).toBe(true);
    expect(text).not.toContain('events.jsonl');
    await resumed.session.close();
    expect(existsSync(join(dir, '.auggy', 'sessions'))).toBe(false);
  });

  it.skipIf(!tmuxAvailable())(
    "auggy run --resume --store in a real terminal offers the store's sessions and opens the one picked from there",
    { timeout: 180_000 },
    async () => {
      const { url } = await pg.freshDatabase();
      const dir = copyExample();
      await twoSessions(dir, ['--store', url]);
      const terminal = await openTerminal({
        command: ['node', AUGGY_BIN, 'run', '--resume', '--store', url],
        cwd: dir,
        env: { ...CLEAN_MODEL_ENV, NO_COLOR: '1' },
        width: 100,
        height: 30,
      });
      terminals.push(terminal);
      const picker = await terminal.waitForText('Resume a session');
      const rows = picker.split('\n').filter((line) => /\d{8}-\d{6}-/.test(line));
      expect(rows[0]).toMatch(/^› .*waiting for your answer\s+deploy the api/);
      expect(rows[1]).toMatch(/completed\s+hello/);
      await terminal.press('Down');
      await terminal.waitForScreen((screen) => /^› .*completed\s+hello/m.test(screen), 'the second row picked');
      await terminal.press('Enter');
      await terminal.waitForText(TUI_READY);
      const chat = await terminal.screen();
      expect(chat).toContain('(resumed)');
      expect(chat).toContain("Hello! I'm the demo agent.");
      await sendLine(terminal, '/session');
      await terminal.waitForText(`store   ${url}`);
      expect(existsSync(join(dir, '.auggy', 'sessions'))).toBe(false);
    },
  );
});

describeWithPostgres('a chat on a store after another process wrote its session', () => {
  /** The session's log as the database holds it: who said what, in order. */
  async function userLines(database: string, sessionId: string): Promise<string[]> {
    const rows = await pg
      .cluster()
      .query<{ text: string }>(database, "SELECT entry->>'text' AS text FROM auggy_events WHERE session_id = $1 AND kind = 'user' ORDER BY id", [sessionId]);
    return rows.map((row) => row.text);
  }

  async function chatAndOther() {
    const { url, database } = await pg.freshDatabase();
    const dir = copyExample();
    const target = await loadRunnableAgent(dir, {}, () => undefined);
    // Two stores are two processes: each has its own lease owner.
    const stores = [await openAgentStore(target, { url }, () => undefined), await openAgentStore(target, { url }, () => undefined)];
    opened.push(...stores);
    return { url, database, dir, target, stores };
  }

  it('its next turn takes the lease, starts from what the other appended (transcript and ask), and is stored', async () => {
    const { database, target, stores } = await chatAndOther();
    const chat = await openConversation(target, {}, () => undefined, stores[0]);
    expect((await chat.runTurn('hello')).status).toBe('completed');
    const other = await openConversation(target, { sessionId: chat.session.id }, () => undefined, stores[1]);
    expect((await other.runTurn('deploy the api')).status).toBe('input-required');
    await other.session.close();

    const answered = await chat.runTurn('api-east');
    expect(answered.status).toBe('completed');
    expect(answered.text).toContain('Deploying that service now');
    expect(
      chat
        .transcript()
        .filter((message) => message.role === 'user')
        .map((message) => message.content),
    ).toEqual(['hello', 'deploy the api', 'api-east']);
    // The ask the other run set was read back too: the answer revised it.
    expect(chat.snapshot()).toMatchObject({ ask: { text: 'Deploy api-east to production.', revisions: ['hello', 'deploy the api', 'api-east'] } });
    expect(await userLines(database, chat.session.id)).toEqual(['hello', 'deploy the api', 'api-east']);
    // And the turn after that too: nothing stays broken.
    expect((await chat.runTurn('thanks')).status).toBeDefined();
    expect(await userLines(database, chat.session.id)).toEqual(['hello', 'deploy the api', 'api-east', 'thanks']);
    await chat.session.close();
  });

  it('the same when the other is the built binary run --print --session between its turns', async () => {
    const { url, database, dir, target, stores } = await chatAndOther();
    const chat = await openConversation(target, {}, () => undefined, stores[0]);
    expect((await chat.runTurn('hello')).status).toBe('completed');
    const other = await auggyIn(dir, ['run', '.', '--print', '--session', chat.session.id, 'deploy the api', '--store', url]);
    expect(other.exitCode).toBe(3);
    expect((await chat.runTurn('api-east')).status).toBe('completed');
    expect(await userLines(database, chat.session.id)).toEqual(['hello', 'deploy the api', 'api-east']);
    await chat.session.close();
  });

  it('the chat screen shows the answer, and a turn that cannot even start says why in one line', async () => {
    const { database, dir, target, stores } = await chatAndOther();
    const chat = await openChat(dir, { store: stores[0] });
    chat.write('hello', KEY.enter);
    await frameWith(chat.lastFrame, "Hello! I'm the demo agent.");
    await vi.waitFor(() => expect(chat.conversation.isRunning).toBe(false), { timeout: 15_000 });
    const other = await openConversation(target, { sessionId: chat.conversation.session.id }, () => undefined, stores[1]);
    expect((await other.runTurn('deploy the api')).status).toBe('input-required');
    await other.session.close();
    chat.write('api-east', KEY.enter);
    await frameWith(chat.lastFrame, 'Deploying that service now');
    expect(await userLines(database, chat.conversation.session.id)).toEqual(['hello', 'deploy the api', 'api-east']);

    // A store gone away: the turn fails before any event, and the transcript still says why.
    await stores[0].close();
    chat.write('once more', KEY.enter);
    const failed = await frameWith(chat.lastFrame, (frame) => /✗ failed/.test(frame));
    expect(failed).toMatch(/✗ failed: .*(pool|session store)/i);
    chat.unmount();
  });

  it.skipIf(!tmuxAvailable())(
    "in a real terminal: the reviewer's steps answer the other run's question, and Ctrl+D prints the store resume hint",
    { timeout: 180_000 },
    async () => {
      const { url, database, dir } = await chatAndOther();
      expect((await auggyIn(dir, ['run', '.', '--print', 'hello', '--store', url])).exitCode).toBe(0);
      const [{ id }] = JSON.parse((await auggyIn(dir, ['sessions', '--store', url, '--json'])).stdout) as SessionSummary[];
      const terminal = await openTerminal({
        command: ['node', AUGGY_BIN, 'run', '.', '--session', id, '--store', url],
        cwd: dir,
        env: { ...CLEAN_MODEL_ENV, NO_COLOR: '1' },
        width: 100,
        height: 30,
      });
      terminals.push(terminal);
      await terminal.waitForText(TUI_READY);
      expect((await auggyIn(dir, ['run', '.', '--print', '--session', id, 'deploy the api', '--store', url])).exitCode).toBe(3);
      await sendLine(terminal, 'api-east');
      await terminal.waitForText('Deploying that service now');
      expect(await userLines(database, id)).toEqual(['hello', 'deploy the api', 'api-east']);
      await terminal.press('C-d');
      expect(await terminal.waitForExit()).toBe(0);
      expect(await terminal.screen({ joined: true })).toContain(`Resume this chat with: node ${AUGGY_BIN} run . --session ${id} --store ${url}`);
    },
  );
});
