import { describe, expect, it } from 'vitest';
import { EVALUATOR_SYSTEM_PROMPT } from '../../../src/augments/user-ask/evaluator.js';
import { block, command, evaluations, modelTurn, quickTurn, savedAsk, startUserAsk, systemLines, verdict } from './harness.js';

describe('userAsk: the table of events', () => {
  it('a user message becomes the active ask; the previous one moves into the revision history', async () => {
    const h = await startUserAsk();
    expect(h.ask.indicator?.()).toBeUndefined();
    await h.ask.onUserMessage?.('deploy the api');
    expect(h.ask.indicator?.()).toBe('? ask (0)');
    await h.ask.onUserMessage?.('api-west please');
    expect(savedAsk(h)).toMatchObject({ text: 'api-west please', active: true, source: 'user', revisions: [{ text: 'deploy the api' }] });
    // A blank message says nothing about the request.
    await h.ask.onUserMessage?.('   ');
    expect(savedAsk(h)).toMatchObject({ text: 'api-west please' });
  });

  it('set_user_ask records or replaces the ask from the agent', async () => {
    const h = await startUserAsk();
    const { systems } = await modelTurn(h, 'api-west', [
      { toolCalls: [{ name: 'set_user_ask', args: { text: 'Deploy api-west to production' } }] },
      { text: 'Deploying api-west.' },
    ]);
    expect(savedAsk(h)).toMatchObject({ text: 'Deploy api-west to production', source: 'agent', revisions: [{ text: 'api-west' }] });
    // The next round's block already shows the agent's wording.
    expect(systems[1]).toContain('Current ask:\nDeploy api-west to production');
    const result = h.events.find((e) => e.type === 'TOOL_CALL_RESULT');
    expect(result).toMatchObject({ content: 'Tracking the ask: Deploy api-west to production' });
    // The evaluation after the turn judges the agent's wording.
    expect(h.completions[0].prompt).toContain('<ask>\nDeploy api-west to production\n</ask>');
  });

  it('clear_user_ask clears it: no evaluation after that turn, no file, no indicator', async () => {
    const h = await startUserAsk();
    await modelTurn(h, 'never mind, forget it', [{ toolCalls: [{ name: 'clear_user_ask', args: {} }] }, { text: 'Dropped.' }]);
    expect(h.completions).toHaveLength(0);
    expect(savedAsk(h)).toBeUndefined();
    expect(h.ask.indicator?.()).toBeUndefined();
    expect(h.events.find((e) => e.type === 'TOOL_CALL_RESULT')).toMatchObject({ content: 'Stopped tracking the ask.', isError: undefined });
  });

  it('/ask <text> sets or replaces the ask by hand', async () => {
    const h = await startUserAsk();
    expect(await command(h, 'Write the release notes')).toEqual({ lines: ['Ask set: Write the release notes'] });
    expect(savedAsk(h)).toMatchObject({ text: 'Write the release notes', source: 'command', active: true });
    const replaced = await command(h, '  Write the release notes for 2.0  ');
    expect(replaced.lines).toEqual(['Ask set: Write the release notes for 2.0', 'The previous ask moved to the revision history.']);
    // Only the exact alias clears; a sentence starting with one is an ask.
    await command(h, 'stop the staging deploy');
    expect(savedAsk(h)).toMatchObject({ text: 'stop the staging deploy' });
  });

  it('/ask shows the ask, evaluated turns, the last outcome and reason, and the revisions', async () => {
    const h = await startUserAsk({ replies: [verdict('in_progress', 'asked which service')] });
    expect((await command(h, '')).lines).toEqual(['No ask is tracked. Your next message becomes the ask, or set one with /ask <text>.']);
    await quickTurn(h, 'deploy the api', 'Which service?', 'input-required');
    await h.ask.onUserMessage?.('api-west');
    expect((await command(h, '')).lines).toEqual([
      'Ask (active, 1 turn evaluated): api-west',
      'Last evaluation: in progress: asked which service',
      'Revisions, oldest first (the last 8 are kept):',
      '  1. deploy the api',
    ]);
  });

  it('/ask clear clears; stop, off, reset, none and cancel are aliases in any case, trimmed', async () => {
    const h = await startUserAsk();
    for (const word of ['clear', 'stop', 'OFF', ' Reset ', 'none', 'Cancel']) {
      await command(h, 'something to track');
      expect(h.ask.indicator?.(), word).toBe('? ask (0)');
      const output = await command(h, word);
      expect(output.lines, word).toEqual(['Ask cleared: no request is tracked until your next message.']);
      expect(h.ask.indicator?.(), word).toBeUndefined();
      expect(savedAsk(h), word).toBeUndefined();
    }
    expect((await command(h, 'clear')).lines).toEqual(['No ask was tracked; nothing to clear.']);
  });

  it('/clear (a new conversation) clears the ask and removes user_ask.json', async () => {
    const h = await startUserAsk();
    await h.ask.onUserMessage?.('deploy');
    expect(savedAsk(h)).toBeDefined();
    await h.ask.onCleared?.();
    expect(savedAsk(h)).toBeUndefined();
    expect(h.ask.snapshot?.()).toEqual({ ask: null });
    expect(block(h)).toBeUndefined();
  });
});

describe('userAsk: the evaluation after each turn', () => {
  it('makes one completion with the evaluator instructions, the ask and the transcript', async () => {
    const h = await startUserAsk({ replies: [verdict('in_progress', 'not yet')] });
    await quickTurn(h, 'deploy the api', 'Building the image now.');
    expect(h.completions).toHaveLength(1);
    const [call] = h.completions;
    expect(call.system).toBe(EVALUATOR_SYSTEM_PROMPT);
    expect(call.model).toBeUndefined();
    expect(call.prompt).toContain('<ask>\ndeploy the api\n</ask>');
    expect(call.prompt).toContain('[user] deploy the api');
    expect(call.prompt).toContain('[assistant] Building the image now.');
    expect(call.prompt).toContain('<latest_turn status="completed">\nBuilding the image now.\n</latest_turn>');
  });

  it('uses config.evaluatorModel when set', async () => {
    const h = await startUserAsk({ config: '  evaluatorModel: openai:gpt-5.4-mini\n' });
    await quickTurn(h, 'x');
    expect(h.completions[0].model).toBe('openai:gpt-5.4-mini');
  });

  it('achieved: a system line, the structured event, and the ask deactivates (the next message starts fresh)', async () => {
    const h = await startUserAsk({ replies: [verdict('achieved', 'The api is live.')] });
    await quickTurn(h, 'deploy the api', 'Deployed: the api is live.');
    expect(systemLines(h)).toEqual(['user ask achieved: The api is live.']);
    expect(evaluations(h)).toEqual([
      {
        ok: true,
        outcome: 'achieved',
        reason: 'The api is live.',
        readable: true,
        ask: 'deploy the api',
        active: false,
        evaluatedTurns: 1,
        turnStatus: 'completed',
      },
    ]);
    expect(h.ask.indicator?.()).toBeUndefined();
    expect(block(h)).toBeUndefined();
    expect(savedAsk(h)).toMatchObject({ active: false, lastOutcome: 'achieved', lastReason: 'The api is live.', evaluatedTurns: 1 });
    // No active ask: the next turn is not judged until a message starts a fresh one.
    await h.ask.afterTurn?.({ status: 'completed', text: 'x', transcript: h.messages });
    expect(h.completions).toHaveLength(1);
    await h.ask.onUserMessage?.('now the docs');
    expect(savedAsk(h)).toMatchObject({
      text: 'now the docs',
      active: true,
      evaluatedTurns: 0,
      lastOutcome: null,
      revisions: [{ text: 'deploy the api', outcome: 'achieved' }],
    });
  });

  it('blocked: a system line and the ask deactivates', async () => {
    const h = await startUserAsk({ replies: [verdict('blocked', 'No credentials for production.')] });
    await quickTurn(h, 'deploy the api', 'I have no credentials.');
    expect(systemLines(h)).toEqual(['user ask blocked: No credentials for production.']);
    expect(h.ask.indicator?.()).toBeUndefined();
    expect(h.ask.snapshot?.()).toMatchObject({ ask: { active: false, outcome: 'blocked' } });
  });

  it('in progress: a system line, the ask stays, and the indicator counts evaluated turns', async () => {
    const h = await startUserAsk({ replies: [verdict('in_progress', 'built, not pushed'), verdict('in_progress', 'pushed, not rolled out')] });
    await quickTurn(h, 'deploy the api', 'Built.');
    expect(h.ask.indicator?.()).toBe('? ask (1)');
    await quickTurn(h, 'go on', 'Pushed.');
    expect(h.ask.indicator?.()).toBe('? ask (2)');
    expect(systemLines(h)).toEqual(['user ask in progress: built, not pushed', 'user ask in progress: pushed, not rolled out']);
    expect(block(h)).toContain('Last evaluation: in progress (pushed, not rolled out)');
  });

  it('an input-required turn is evaluated like any other; canceled and failed turns are not', async () => {
    const h = await startUserAsk({ replies: [verdict('in_progress', 'waiting for the service name')] });
    await quickTurn(h, 'deploy', 'Which service?', 'input-required');
    expect(h.completions[0].prompt).toContain('<latest_turn status="input-required">');
    expect(h.ask.indicator?.()).toBe('? ask (1)');
    await quickTurn(h, 'api-west', 'Deplo', 'canceled');
    await quickTurn(h, 'api-west', '', 'failed');
    expect(h.completions).toHaveLength(1);
    expect(h.ask.indicator?.()).toBe('? ask (1)');
  });

  it('budget-exhausted turns are judged too', async () => {
    const h = await startUserAsk();
    await quickTurn(h, 'refactor everything', 'Partway.', 'budget-exhausted');
    expect(h.completions).toHaveLength(1);
  });

  it('an unreadable reply counts as in progress and says the reply was unreadable', async () => {
    const h = await startUserAsk({ replies: ['I think it went well!'] });
    await quickTurn(h, 'deploy', 'Deployed.');
    expect(systemLines(h)).toEqual([`user ask in progress: the evaluator's reply was unreadable (no JSON object): "I think it went well!"`]);
    expect(evaluations(h)[0]).toMatchObject({ ok: true, outcome: 'in_progress', readable: false, active: true });
    expect(h.ask.indicator?.()).toBe('? ask (1)');
  });

  it('a failed evaluator call is reported as such and leaves the ask as it was', async () => {
    const h = await startUserAsk({ replies: [verdict('in_progress', 'first'), { error: 'the provider answered 503' }] });
    await quickTurn(h, 'deploy', 'Started.');
    const before = savedAsk(h);
    await quickTurn(h, 'deploy', 'More.');
    expect(systemLines(h).at(-1)).toBe('user ask not evaluated: the evaluator call failed: the provider answered 503 (the ask stays as it was)');
    expect(evaluations(h).at(-1)).toMatchObject({ ok: false, outcome: null, error: 'the provider answered 503', evaluatedTurns: 1, active: true });
    expect(savedAsk(h)).toEqual(before);
    expect(h.ask.indicator?.()).toBe('? ask (1)');
    expect(h.ask.snapshot?.()).toMatchObject({ ask: { evaluatedTurns: 1, outcome: 'in_progress', evaluationError: 'the provider answered 503' } });
  });

  it('never starts a turn: afterTurn only emits a structured event and a system line', async () => {
    const h = await startUserAsk();
    await quickTurn(h, 'deploy', 'Started.');
    expect(h.events.map((e) => (e.type === 'CUSTOM' ? e.name : e.type))).toEqual(['userAsk.evaluation', 'auggy.system']);
  });
});

describe('userAsk: the system-prompt block and the caps', () => {
  it('the block is there only while an ask is active, with the ask, revisions and last evaluation', async () => {
    const h = await startUserAsk({ replies: [verdict('in_progress', 'asked which one'), verdict('achieved', 'deployed')] });
    expect(block(h)).toBeUndefined();
    const first = await modelTurn(h, 'deploy the api', [{ text: 'Which service?' }]);
    expect(first.systems[0]).toContain('<augment id="userAsk">');
    expect(first.systems[0]).toContain('Current ask:\ndeploy the api');
    expect(first.systems[0]).toContain('call set_user_ask');
    const second = await modelTurn(h, 'api-west', [{ text: 'Deployed api-west.' }]);
    expect(second.systems[0]).toContain('Earlier asks, oldest first:\n- deploy the api');
    expect(second.systems[0]).toContain('Last evaluation: in progress (asked which one)');
    // Achieved: the next round's prompt has no block.
    expect(block(h)).toBeUndefined();
    const third = await modelTurn(h, '', [{ text: 'ok' }]);
    expect(third.systems[0]).not.toContain('<augment id="userAsk">');
  });

  it('cuts a long user message to maxAskChars', async () => {
    const h = await startUserAsk({ config: '  maxAskChars: 40\n' });
    await h.ask.onUserMessage?.(`please ${'very '.repeat(30)}carefully deploy`);
    const text = String(savedAsk(h)?.text);
    expect(text).toHaveLength(40);
    expect(text.endsWith('…')).toBe(true);
    const shown = await command(h, 'x'.repeat(60));
    expect(shown.lines[1]).toBe('(cut to 40 characters, the userAsk maxAskChars)');
  });

  it('set_user_ask refuses text over maxAskChars with an error the model can act on', async () => {
    const h = await startUserAsk({ config: '  maxAskChars: 40\n' });
    await modelTurn(h, 'deploy', [{ toolCalls: [{ name: 'set_user_ask', args: { text: 'y'.repeat(41) } }] }, { text: 'ok' }]);
    const result = h.events.find((e) => e.type === 'TOOL_CALL_RESULT');
    expect(result).toMatchObject({ isError: true });
    expect(result?.type === 'TOOL_CALL_RESULT' && result.content).toContain('at most 40 characters');
    expect(savedAsk(h)).toMatchObject({ text: 'deploy' });
  });

  it('snapshot: ask null when nothing is tracked, else text, outcome, reason, evaluatedTurns', async () => {
    const h = await startUserAsk({ replies: [verdict('in_progress', 'half')] });
    expect(h.ask.snapshot?.()).toEqual({ ask: null });
    await h.ask.onUserMessage?.('deploy');
    expect(h.ask.snapshot?.()).toEqual({ ask: { text: 'deploy', active: true, outcome: null, reason: null, evaluatedTurns: 0, revisions: [] } });
    await quickTurn(h, 'api-west', 'Halfway.');
    expect(h.ask.snapshot?.()).toEqual({
      ask: { text: 'api-west', active: true, outcome: 'in_progress', reason: 'half', evaluatedTurns: 1, revisions: ['deploy'] },
    });
  });
});
