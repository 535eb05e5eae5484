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

export function questionnaireResultOf(event: KernelEvent): QuestionnaireResultValue | undefined {
  return event.type === 'CUSTOM' && event.name === QUESTIONNAIRE_RESULT_EVENT ? (event.value as QuestionnaireResultValue) : undefined;
}

/** An answer as read (a list's items, yes/no); undefined when it is neither text, number nor list. */
function readAnswerText(answer: unknown): string | undefined {
  if (Array.isArray(answer)) return answer.join(', ');
  if (typeof answer === 'boolean') return answer ? 'yes' : 'no';
  if (typeof answer === 'string' || typeof answer === 'number') return String(answer);
  return undefined;
}

/** The answer as read (a choice's option for its number, yes/no), or what was typed. */
function shownAnswer(answered: { text: string; answer: unknown }): string {
  return readAnswerText(answered.answer) ?? (answered.text.trim() === '' ? '(nothing)' : answered.text);
}

/** A questionnaire's accepted answers on one line, in field order: `environment: production · replicas: 2`. */
export function answersLine(answers: Record<string, unknown>): string {
  const parts = Object.entries(answers).map(([field, answer]) => `${field}: ${readAnswerText(answer) ?? JSON.stringify(answer)}`);
  return parts.length > 0 ? parts.join(' · ') : '(no fields answered)';
}

/** One line for a transcript or stderr: `? Which region? → eu-west`, `? Which region? (nobody answered: away)`. */
export function answeredLine(question: PresentedQuestion, answered: AnsweredValue): string {
  const after = 'reason' in answered ? `(${answered.reason === 'away' ? 'nobody answered: away' : 'declined'})` : `→ ${shownAnswer(answered)}`;
  return `? ${question.question} ${after}`;
}
