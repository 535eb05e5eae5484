import { describe, expect, it } from 'vitest';
import type { CompleteFn } from '../../src/kernel/augment.js';
import { compactTranscript } from '../../src/kernel/context/compact-transcript.js';
import type { SessionEntry } from '../../src/session/entries.js';
import { transcriptWithTurns } from '../../src/session/transcript.js';

const at = '2026-12-03T06:00:00.000Z';

function turns(count: number): SessionEntry[] {
  return Array.from({ length: count }, (_, n): SessionEntry[] => [
    { kind: 'user', turnId: `t${n}`, text: `question ${n}: ${'about the rollout '.repeat(20)}`, at },
    { kind: 'message', turnId: `t${n}`, message: { role: 'assistant', content: [{ type: 'text', text: `answer ${n}` }] } },
  ]).flat();
}

/** `/compact` of four turns, the summary written by `complete`. */
function compactFourTurns(complete: CompleteFn) {
  return compactTranscript({
    reason: 'command',
    transcript: transcriptWithTurns(turns(4)),
    system: 'You help.',
    policy: { limit: 8000, at: 0.8, keep: 1, auto: true, reserve: 800 },
    tokensBefore: 2000,
    complete,
    maxOutputTokens: 1000,
  });
}

describe('a compaction that fails says why twice: in full, and in words a remote client may read', () => {
  it('a summary the model server refused is quoted for the person and told by its kind to a client', async () => {
    const outcome = await compactFourTurns(async () => ({ ok: false, error: 'upstream db-7.corp.internal:5432 refused the connection' }));
    expect(outcome).toMatchObject({
      ok: false,
      why: 'the model could not write the summary: upstream db-7.corp.internal:5432 refused the connection',
      clientWhy: 'the summary could not be written',
    });
  });

  it('a reason that quotes no server has no second form', async () => {
    const outcome = await compactFourTurns(async () => ({ ok: true, text: '   ' }));
    expect(outcome).toMatchObject({ ok: false, why: 'the model wrote an empty summary' });
    expect(outcome).not.toHaveProperty('clientWhy');
  });
});
