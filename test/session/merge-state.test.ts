import { describe, expect, it } from 'vitest';
import { mergeState } from '../../src/session/merge-state.js';

describe('merging a state file written by two writers', () => {
  const base = { version: 1, lines: { queue: { text: 'a' }, progress: { text: 'b' } } };

  it("keeps the other writer's change to a part this writer left alone", () => {
    const mine = { version: 1, lines: { queue: { text: 'a' }, progress: { text: 'agent moved on' } } };
    const theirs = { version: 1, lines: { queue: { text: 'person wrote' }, progress: { text: 'b' } } };
    expect(mergeState(base, mine, theirs)).toEqual({ version: 1, lines: { queue: { text: 'person wrote' }, progress: { text: 'agent moved on' } } });
  });

  it('lets this writer win where both changed the same value, and removes what it removed', () => {
    const mine = { version: 1, lines: { queue: { text: 'mine' } } };
    const theirs = { version: 1, lines: { queue: { text: 'theirs' }, progress: { text: 'b' }, notes: { text: 'new' } } };
    expect(mergeState(base, mine, theirs)).toEqual({ version: 1, lines: { queue: { text: 'mine' }, notes: { text: 'new' } } });
  });

  it("takes this writer's value whole when nothing was saved, nothing changed elsewhere, or it is not an object", () => {
    expect(mergeState(undefined, { a: 1 }, undefined)).toEqual({ a: 1 });
    expect(mergeState(base, { x: 1 }, base)).toEqual({ x: 1 });
    expect(mergeState([1], [1, 2], [0])).toEqual([1, 2]);
    expect(mergeState(base, base, { other: true })).toEqual({ other: true });
  });
});
