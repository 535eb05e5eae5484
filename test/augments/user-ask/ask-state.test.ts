import { describe, expect, it } from 'vitest';
import { MAX_REVISIONS, applyEvaluation, capAsk, replaceAsk, type AskState } from '../../../src/augments/user-ask/ask-state.js';

const now = new Date('2025-01-01T00:00:00Z');

function chain(texts: string[]): AskState | undefined {
  return texts.reduce<AskState | undefined>((state, text) => replaceAsk(state, text, 'user', now), undefined);
}

describe('the ask and its revisions', () => {
  it('a new ask supersedes the previous, which moves into the revisions, oldest first', () => {
    const state = chain(['deploy the api', 'api-west', 'actually api-east']);
    expect(state).toMatchObject({ text: 'actually api-east', active: true, source: 'user' });
    expect(state?.revisions.map((r) => r.text)).toEqual(['deploy the api', 'api-west']);
  });

  it(`keeps only the last ${MAX_REVISIONS} revisions`, () => {
    const texts = Array.from({ length: 12 }, (_, i) => `ask ${i + 1}`);
    const state = chain(texts);
    expect(state?.revisions).toHaveLength(MAX_REVISIONS);
    expect(state?.revisions.map((r) => r.text)).toEqual(texts.slice(3, 11));
    expect(state?.text).toBe('ask 12');
  });

  it('restating the active ask word for word is not a revision', () => {
    const state = chain(['deploy', 'deploy']);
    expect(state?.revisions).toEqual([]);
  });

  it('revising an active ask keeps its evaluation count; replacing a closed one starts fresh, noting how it ended', () => {
    let state = applyEvaluation(chain(['deploy'])!, 'in_progress', 'asked which service');
    state = replaceAsk(state, 'api-west', 'user', now);
    expect(state).toMatchObject({ evaluatedTurns: 1, lastOutcome: 'in_progress', lastReason: 'asked which service', active: true });
    expect(state.revisions).toEqual([{ text: 'deploy', at: now.toISOString() }]);

    state = applyEvaluation(state, 'achieved', 'deployed');
    expect(state).toMatchObject({ active: false, evaluatedTurns: 2, lastOutcome: 'achieved' });
    state = replaceAsk(state, 'now the docs', 'user', now);
    expect(state).toMatchObject({ text: 'now the docs', active: true, evaluatedTurns: 0, lastOutcome: null, lastReason: null });
    expect(state.revisions.at(-1)).toEqual({ text: 'api-west', at: now.toISOString(), outcome: 'achieved' });
  });

  it('each outcome: achieved and blocked close the ask, in progress keeps it', () => {
    const start = chain(['x'])!;
    expect(applyEvaluation(start, 'achieved', 'r')).toMatchObject({ active: false, evaluatedTurns: 1 });
    expect(applyEvaluation(start, 'blocked', 'r')).toMatchObject({ active: false, evaluatedTurns: 1 });
    expect(applyEvaluation(start, 'in_progress', 'r')).toMatchObject({ active: true, evaluatedTurns: 1 });
  });

  it('caps the ask length with a visible ellipsis', () => {
    expect(capAsk('  short  ', 10)).toEqual({ text: 'short', truncated: false });
    const capped = capAsk('x'.repeat(50), 20);
    expect(capped).toEqual({ text: `${'x'.repeat(19)}…`, truncated: true });
    expect(capped.text).toHaveLength(20);
  });
});
