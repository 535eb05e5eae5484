import type { KernelEvent } from '../../kernel/events.js';
import type { PresentedQuestion } from '../../kernel/person.js';
import type { QuestionnaireResult } from './questionnaire-result.js';

/**
 * CUSTOM event names. Every question travels the road request_input travels: the session log,
 * `--output stream-json`, and serve's AG-UI stream all carry these unchanged.
 */
export const QUESTION_EVENT = 'question';
export const ANSWERED_EVENT = 'answered';
export const QUESTIONNAIRE_RESULT_EVENT = 'questionnaire.result';

/** After each question: what the person typed and how it reads, or why nobody answered. */
export type AnsweredValue =
  | { questionnaireId: string; field: string; text: string; answer: unknown }
  | { questionnaireId: string; field: string; reason: 'away' | 'declined' };

export type QuestionnaireResultValue = { questionnaireId: string } & QuestionnaireResult;

export function questionEvent(question: PresentedQuestion): KernelEvent {
  return { type: 'CUSTOM', name: QUESTION_EVENT, value: question };
}

export function answeredEvent(value: AnsweredValue): KernelEvent {
  return { type: 'CUSTOM', name: ANSWERED_EVENT, value };
}

export function questionnaireResultEvent(value: QuestionnaireResultValue): KernelEvent {
  return { type: 'CUSTOM', name: QUESTIONNAIRE_RESULT_EVENT, value };
}

/** The question of a `question` event, for hosts that draw or print it. */
export function questionOf(event: KernelEvent): PresentedQuestion | undefined {
  return event.type === 'CUSTOM' && event.name === QUESTION_EVENT ? (event.value as PresentedQuestion) : undefined;
}

export function answeredOf(event: KernelEvent): AnsweredValue | undefined {
  return event.type === 'CUSTOM' && event.name === ANSWERED_EVENT ? (event.value as AnsweredValue) : undefined;
}

/** The answer as read (a choice's option for its number, yes/no), or what was typed. */
function shownAnswer(answered: { text: string; answer: unknown }): string {
  const { answer } = answered;
  if (Array.isArray(answer)) return answer.join(', ');
  if (typeof answer === 'boolean') return answer ? 'yes' : 'no';
  if (typeof answer === 'string' || typeof answer === 'number') return String(answer);
  return answered.text.trim() === '' ? '(nothing)' : answered.text;
}

/** One line for a transcript or stderr: `? Which region? → eu-west`, `? Which region? (nobody answered: away)`. */
export function answeredLine(question: PresentedQuestion, answered: AnsweredValue): string {
  const after = 'reason' in answered ? `(${answered.reason === 'away' ? 'nobody answered: away' : 'declined'})` : `→ ${shownAnswer(answered)}`;
  return `? ${question.question} ${after}`;
}
