import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { USER_ASK_FILE, UserAskStore } from '../../../src/augments/user-ask/user-ask-store.js';
import { SessionError, type SessionHandle } from '../../../src/session/session.js';
import { quickTurn, savedAsk, startUserAsk, verdict } from './harness.js';
import { folderOf } from '../../helpers/session-folder.js';

const inProgress = verdict('in_progress', 'more to do');

describe('userAsk persistence in user_ask.json', () => {
  it('writes text, active, revisions, evaluatedTurns, lastOutcome and lastReason', async () => {
    const h = await startUserAsk({ replies: [inProgress] });
    await quickTurn(h, 'deploy the api');
    await h.ask.onUserMessage?.('api-west');
    expect(savedAsk(h)).toMatchObject({
      text: 'api-west',
      active: true,
      revisions: [{ text: 'deploy the api' }],
      evaluatedTurns: 1,
      lastOutcome: 'in_progress',
      lastReason: 'more to do',
    });
    // Written atomically: no temp file left beside it.
    expect(readdirSync(folderOf(h.session)).filter((name) => name.startsWith(USER_ASK_FILE))).toEqual([USER_ASK_FILE]);
  });

  it('a resumed session restores the ask, with the evaluated-turn counter back at 0', async () => {
    const first = await startUserAsk({ replies: [inProgress, inProgress] });
    await quickTurn(first, 'deploy the api');
    await quickTurn(first, 'api-west');
    expect(first.ask.indicator?.()).toBe('? ask (2)');

    const resumed = await startUserAsk({ dir: first.dir, sessionId: first.session.id });
    expect(resumed.session.resumed).toBe(true);
    expect(resumed.warnings).toEqual([]);
    expect(resumed.ask.indicator?.()).toBe('? ask (0)');
    expect(resumed.ask.snapshot?.()).toEqual({
      ask: { text: 'api-west', active: true, outcome: 'in_progress', reason: 'more to do', evaluatedTurns: 0, revisions: ['deploy the api'] },
    });
    expect(resumed.ask.promptBlock?.()).toContain('Current ask:\napi-west');
  });

  it('a closed ask is restored closed: no block, no indicator, still shown by /ask', async () => {
    const first = await startUserAsk({ replies: [verdict('achieved', 'live')] });
    await quickTurn(first, 'deploy');
    const resumed = await startUserAsk({ dir: first.dir, sessionId: first.session.id });
    expect(resumed.ask.indicator?.()).toBeUndefined();
    expect(resumed.ask.promptBlock?.()).toBeUndefined();
    expect(resumed.ask.snapshot?.()).toMatchObject({ ask: { text: 'deploy', active: false, outcome: 'achieved' } });
  });

  it('a corrupt user_ask.json is reported and set aside, and the session still runs', async () => {
    const first = await startUserAsk();
    await first.ask.onUserMessage?.('deploy');
    writeFileSync(join(folderOf(first.session), USER_ASK_FILE), '{"text": "dep');
    const resumed = await startUserAsk({ dir: first.dir, sessionId: first.session.id });
    expect(resumed.warnings).toHaveLength(1);
    expect(resumed.warnings[0]).toMatch(
      /^userAsk: user_ask\.json was not readable JSON and was set aside as .*user_ask\.json\.corrupt-\d+; no ask is tracked$/,
    );
    const names = readdirSync(folderOf(resumed.session));
    expect(names.some((name) => name.startsWith('user_ask.json.corrupt-'))).toBe(true);
    expect(resumed.ask.snapshot?.()).toEqual({ ask: null });
    await quickTurn(resumed, 'try again');
    expect(savedAsk(resumed)).toMatchObject({ text: 'try again', evaluatedTurns: 1 });
  });

  it('JSON that is not an ask is set aside too', async () => {
    const first = await startUserAsk();
    writeFileSync(join(folderOf(first.session), USER_ASK_FILE), '{"text": 42}');
    const resumed = await startUserAsk({ dir: first.dir, sessionId: first.session.id });
    expect(resumed.warnings[0]).toMatch(/^userAsk: user_ask\.json does not hold an ask .* set aside as .*user_ask\.json\.invalid-\d+/);
    expect(existsSync(join(folderOf(first.session), USER_ASK_FILE))).toBe(false);
    expect(resumed.ask.snapshot?.()).toEqual({ ask: null });
  });

  it('a disk that refuses the write is reported once per change; the ask still works for this run', async () => {
    const warnings: string[] = [];
    const session: SessionHandle = {
      id: 's',
      dir: '/nonexistent',
      resumed: false,
      append: () => Promise.resolve(),
      entries: () => ({ entries: [], warnings: [] }),
      readState: () => ({ status: 'missing' }),
      writeState: () => Promise.reject(new SessionError('the disk is full')),
      removeState: () => Promise.resolve(),
      location: '/nonexistent/events.jsonl',
      setAsideState: () => '/nonexistent/aside',
      watchState: () => () => undefined,
      flush: () => Promise.resolve(),
      close: () => Promise.resolve(),
      acquireWriter: async () => ({ notices: [], changedElsewhere: false, release: async () => undefined }),
    };
    const store = new UserAskStore(session, (message) => warnings.push(message));
    await store.set('deploy', 'user');
    expect(store.active?.text).toBe('deploy');
    expect(warnings).toEqual(['userAsk: the ask was not saved: the disk is full']);
  });
});
