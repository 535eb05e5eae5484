import { z } from 'zod';
import type { TurnStatus } from '../../../kernel/events.js';
import { OUTCOMES } from '../../../augments/user-ask/ask-state.js';
import { assertionType } from './types.js';
import { patternMatches } from './bounded-match.js';
import { listed, oneOrMany, regexSource, shown, stringList } from './describe.js';

const STATUSES = ['completed', 'input-required', 'failed', 'canceled', 'budget-exhausted'] as const satisfies readonly TurnStatus[];

/** turn_status: how the turn ended (one status, or any of a list). */
export const turnStatus = assertionType({
  name: 'turn_status',
  params: z.object({ status: oneOrMany(STATUSES) }),
  check({ status }, scope) {
    const actual =
      scope.status === undefined
        ? 'no model turn ran in this step'
        : `${scope.status}${scope.message && scope.status !== 'input-required' ? ` (${scope.message})` : ''}`;
    return { passed: scope.status !== undefined && status.includes(scope.status), expected: `the turn to end ${status.join(' or ')}`, actual };
  },
});

/** asks: a question was put to the person (request_input's prompt or a questionnaire field) that matches. */
export const asks = assertionType({
  name: 'asks',
  params: z
    .object({ pattern: regexSource.optional(), fields: stringList.optional() })
    .refine((params) => params.pattern !== undefined || params.fields !== undefined, {
      message: 'needs pattern (the question, as a regular expression) or fields (the questionnaire fields asked)',
    }),
  check({ pattern, fields }, scope) {
    const asked = scope.questions;
    const wanted = [pattern !== undefined ? `a question matching /${pattern}/` : '', fields ? `the field(s) ${listed(fields)} asked` : '']
      .filter(Boolean)
      .join(' and ');
    const matches = pattern === undefined || asked.some((question) => patternMatches(pattern, question.text, 'i'));
    const missing = (fields ?? []).filter((field) => !asked.some((question) => question.field === field));
    const actual =
      asked.length === 0
        ? 'no question was asked'
        : `asked ${asked.map((question) => (question.field ? `${question.field}: ${shown(question.text)}` : shown(question.text))).join('; ')}`;
    return { passed: matches && missing.length === 0, expected: wanted, actual };
  },
});

/** ask_outcome: the userAsk evaluator's verdict on this turn. */
export const askOutcome = assertionType({
  name: 'ask_outcome',
  params: z.object({ outcome: oneOrMany(OUTCOMES) }),
  check({ outcome }, scope) {
    const expected = `the user ask judged ${outcome.join(' or ')}`;
    const ask = scope.ask;
    if (!ask) return { passed: false, expected, actual: 'the agent has no userAsk augment (add userAsk to agent.yaml augments)' };
    if (!ask.judged) return { passed: false, expected, actual: `no verdict for this turn${ask.error ? ` (the evaluator failed: ${ask.error})` : ''}` };
    return {
      passed: ask.outcome !== undefined && (outcome as readonly string[]).includes(ask.outcome),
      expected,
      actual: `${ask.outcome ?? 'none'}${ask.reason ? `: ${shown(ask.reason)}` : ''}`,
    };
  },
});

/** board_line: a board line's text after the turn, exactly (`text`) or by pattern; optionally who wrote it. */
export const boardLine = assertionType({
  name: 'board_line',
  params: z
    .object({ line: z.string().min(1), text: z.string().optional(), pattern: regexSource.optional(), by: z.enum(['agent', 'person']).optional() })
    .refine((params) => params.text !== undefined || params.pattern !== undefined || params.by !== undefined, {
      message: 'needs text (the exact line) or pattern (a regular expression on it)',
    }),
  check({ line, text, pattern, by }, scope) {
    const wanted = [text !== undefined ? `to read ${shown(text)}` : '', pattern !== undefined ? `to match /${pattern}/` : '', by ? `written by the ${by}` : '']
      .filter(Boolean)
      .join(', ');
    const expected = `board line ${shown(line)} ${wanted}`;
    if (!scope.board) return { passed: false, expected, actual: 'the agent has no board augment (add board to agent.yaml augments)' };
    const found = scope.board[line];
    if (!found) return { passed: false, expected, actual: `the board has no line ${shown(line)} (lines: ${Object.keys(scope.board).join(', ') || 'none'})` };
    const passed =
      (text === undefined || found.text.trim() === text.trim()) &&
      (pattern === undefined || patternMatches(pattern, found.text)) &&
      (by === undefined || found.by === by);
    return { passed, expected, actual: `${shown(found.text)}${found.by ? `, written by the ${found.by}` : ', never written'}` };
  },
});

/**
 * context_compacted: the context was compacted during the turn (or the conversation): at least
 * `min` times (1 unless only `max` is given), at most `max`; `max: 0` checks it was not.
 */
export const contextCompacted = assertionType({
  name: 'context_compacted',
  params: z.object({ min: z.number().int().min(0).optional(), max: z.number().int().min(0).optional() }).default({}),
  check(params, scope) {
    const max = params.max;
    const min = params.min ?? (max !== undefined ? 0 : 1);
    const count = scope.compactions.length;
    const where = scope.kind === 'turn' ? 'during the turn' : 'during the conversation';
    const expected =
      max === undefined
        ? `the context compacted at least ${min} time${min === 1 ? '' : 's'} ${where}`
        : max === 0
          ? `no compaction of the context ${where}`
          : `the context compacted ${min} to ${max} times ${where}`;
    const actual =
      count === 0
        ? 'no compaction'
        : `${count} compaction${count === 1 ? '' : 's'}: ${scope.compactions.map((c) => `${c.reason} ${c.tokensBefore} → ${c.tokensAfter} tokens`).join('; ')}`;
    return { passed: count >= min && (max === undefined || count <= max), expected, actual };
  },
});

const NO_GOAL = 'the agent has no goal augment (add goal to agent.yaml augments)';

/** goal_met: the goal was achieved by the end of the step (`met: false`: it was not). */
export const goalMet = assertionType({
  name: 'goal_met',
  params: z.object({ met: z.boolean().default(true) }).default({ met: true }),
  check({ met }, scope) {
    const expected = met ? 'the goal achieved' : 'the goal not achieved';
    const goal = scope.goal;
    if (!goal) return { passed: false, expected, actual: NO_GOAL };
    const actual = goal.status === 'none' ? 'no goal is set' : `${goal.status} after ${goal.turns} turn(s)${goal.reason ? `: ${shown(goal.reason)}` : ''}`;
    return { passed: goal.met === met, expected, actual };
  },
});

/** goal_turns: the goal took at most `max` evaluated turns (and at least `min`, when given). */
export const goalTurns = assertionType({
  name: 'goal_turns',
  params: z.object({ max: z.number().int().min(0), min: z.number().int().min(0).optional() }),
  check({ max, min }, scope) {
    const expected = min !== undefined ? `between ${min} and ${max} goal turns` : `at most ${max} goal turns`;
    const goal = scope.goal;
    if (!goal) return { passed: false, expected, actual: NO_GOAL };
    return { passed: goal.turns <= max && (min === undefined || goal.turns >= min), expected, actual: `${goal.turns} turn(s) evaluated` };
  },
});
