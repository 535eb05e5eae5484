import type { AnswerValue } from './parse-answer.js';

/**
 * Why nobody answered: nobody is there (print, serve for an old client, /away), the answers were refused too often
 * (or the whole answer did not hold), or the person declined (Esc). Callers take one branch for all.
 */
export type NoAnswerReason = 'away' | 'refused' | 'declined';

export type QuestionnaireResult = { status: 'answered'; answers: Record<string, AnswerValue> } | { status: 'no-answer'; reason: NoAnswerReason };

export function noAnswer(reason: NoAnswerReason): QuestionnaireResult {
  return { status: 'no-answer', reason };
}
