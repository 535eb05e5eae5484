import type { TurnHookContext } from '../../kernel/augment.js';
import { runDeferrableQuestionnaire, type AnswerValue, type QuestionnaireResult, type QuestionnaireSpec } from '../questions/index.js';
import { renderTemplate } from './render-template.js';
import { ANSWERED, type ASK_EVENTS, NO_ANSWER } from './ask-events.js';
import type { TransitionRecord } from './workflow-state.js';

/** How a questionnaire ended, as the transition it fired records it. */
export type AskedRecord = NonNullable<TransitionRecord['asked']>;

export interface AskOutcome {
  event: (typeof ASK_EVENTS)[number];
  result: QuestionnaireResult;
  asked: AskedRecord;
  /** Time spent with the person: not counted against max_wall_time_sec. */
  personMs: number;
}

/** The ask as the person reads it: its prompt and questions may quote variables, context and earlier answers. */
export function renderedAsk(spec: QuestionnaireSpec, syntax: string, values: Record<string, unknown>): QuestionnaireSpec {
  const render = (text: string) => renderTemplate(text, syntax, values).trim();
  return {
    prompt: render(spec.prompt) || spec.prompt,
    fields: spec.fields.map((field) => (field.question === undefined ? field : { ...field, question: render(field.question) || field.question })),
  };
}

/** The questions are held open for a later run (serve's AG-UI interrupts); the workflow waits in the state. */
export type AskPending = { event: 'pending' };

/**
 * Runs one ask state's questionnaire with whoever is in reach. Never throws: nobody there, a
 * refused answer and Esc all come back as NoAnswer with the reason. `questionnaireId` is the
 * same for every asking of one visit, so a later run's answer finds the questions it answers.
 */
export async function askPerson(spec: QuestionnaireSpec, hook: TurnHookContext, now: () => Date, questionnaireId: string): Promise<AskOutcome | AskPending> {
  const started = now().getTime();
  const result = await runDeferrableQuestionnaire(spec, hook.person, { signal: hook.signal, emit: hook.emit, id: questionnaireId });
  if (result.status === 'pending') return { event: 'pending' };
  const personMs = Math.max(0, now().getTime() - started);
  if (result.status === 'answered') return { event: ANSWERED, result, asked: { questionnaireId, status: 'answered' }, personMs };
  return { event: NO_ANSWER, result, asked: { questionnaireId, status: 'no-answer', reason: result.reason }, personMs };
}

/**
 * The workflow's answers after one questionnaire. A state that got no answer drops its fields'
 * earlier answers: a later prompt must not read a stale answer as this visit's.
 */
export function mergeAnswers(answers: Record<string, AnswerValue>, spec: QuestionnaireSpec, result: QuestionnaireResult): Record<string, AnswerValue> {
  if (result.status === 'answered') return { ...answers, ...result.answers };
  const asked = new Set(spec.fields.map((field) => field.name));
  return Object.fromEntries(Object.entries(answers).filter(([name]) => !asked.has(name)));
}

/** Answers as templates show them: lists joined by ", ", the rest as written. */
export function answersForTemplates(answers: Record<string, AnswerValue>): Record<string, string> {
  return Object.fromEntries(Object.entries(answers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : String(value)]));
}
