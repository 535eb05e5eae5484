import { describe, expect, it } from 'vitest';
import { MAX_REASON_CHARS, outcomeFromWord, parseEvaluation } from '../../../src/augments/user-ask/parse-evaluation.js';

describe('parseEvaluation reads the evaluator leniently', () => {
  it('reads the exact format', () => {
    expect(parseEvaluation('{"outcome":"achieved","reason":"The service is live."}')).toEqual({
      outcome: 'achieved',
      reason: 'The service is live.',
      readable: true,
    });
    expect(parseEvaluation(' {"outcome": "blocked", "reason": "No access."}\n')).toMatchObject({ outcome: 'blocked', readable: true });
    expect(parseEvaluation('{"outcome":"in_progress","reason":"Half done."}')).toMatchObject({ outcome: 'in_progress', readable: true });
  });

  it('finds the object between the first { and the last } when prose or fences surround it', () => {
    expect(parseEvaluation('Here is my verdict:\n```json\n{"outcome": "achieved", "reason": "done"}\n```\nHope that helps.')).toMatchObject({
      outcome: 'achieved',
      reason: 'done',
      readable: true,
    });
    expect(parseEvaluation('Sure. {"outcome":"in_progress","reason":"the {config} step remains"} — end')).toMatchObject({
      outcome: 'in_progress',
      reason: 'the {config} step remains',
    });
  });

  it('maps common synonyms, in any case, with spaces or dashes', () => {
    const cases: [string, string][] = [
      ['done', 'achieved'],
      ['Complete', 'achieved'],
      ['SUCCESS', 'achieved'],
      ['completed', 'achieved'],
      ['stuck', 'blocked'],
      ['Blocked', 'blocked'],
      ['needs input', 'blocked'],
      ['pending', 'in_progress'],
      ['In Progress', 'in_progress'],
      ['in-progress', 'in_progress'],
      ['ongoing', 'in_progress'],
      ['partial', 'in_progress'],
    ];
    for (const [word, outcome] of cases) {
      expect(outcomeFromWord(word), word).toBe(outcome);
      expect(parseEvaluation(JSON.stringify({ outcome: word, reason: 'r' })).outcome, word).toBe(outcome);
    }
  });

  it('accepts other key names and one wrapper level', () => {
    expect(parseEvaluation('{"status":"done","explanation":"shipped"}')).toMatchObject({ outcome: 'achieved', reason: 'shipped', readable: true });
    expect(parseEvaluation('{"Verdict":"stuck","Rationale":"no key"}')).toMatchObject({ outcome: 'blocked', reason: 'no key' });
    expect(parseEvaluation('{"evaluation":{"outcome":"pending","reason":"later"}}')).toMatchObject({ outcome: 'in_progress', reason: 'later', readable: true });
  });

  it('keeps a missing reason readable, and flattens and caps a long one', () => {
    expect(parseEvaluation('{"outcome":"achieved"}')).toEqual({ outcome: 'achieved', reason: 'no reason given', readable: true });
    const long = parseEvaluation(JSON.stringify({ outcome: 'blocked', reason: `line one\n\n  line two ${'x'.repeat(2000)}` }));
    expect(long.reason.startsWith('line one line two')).toBe(true);
    expect(long.reason.length).toBe(MAX_REASON_CHARS);
  });

  it('turns anything unreadable into in_progress with a reason that says so, never a success', () => {
    const garbled = [
      '',
      'Achieved! Great work.',
      'done',
      '{"outcome": "achieved", "reason": ',
      '["achieved"]',
      '{"reason":"no outcome here"}',
      '{"outcome":"maybe","reason":"?"}',
      '{"outcome":42}',
    ];
    for (const reply of garbled) {
      const parsed = parseEvaluation(reply);
      expect(parsed.outcome, reply).toBe('in_progress');
      expect(parsed.readable, reply).toBe(false);
      expect(parsed.reason, reply).toMatch(/^the evaluator's reply was unreadable/);
    }
    expect(parseEvaluation('{"outcome":"maybe"}').reason).toContain('unknown outcome "maybe"');
    expect(parseEvaluation('Achieved! Great work.').reason).toContain('"Achieved! Great work."');
  });
});
