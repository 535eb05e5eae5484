import { z } from 'zod';
import type { EmitEvent } from '../../kernel/events.js';
import type { PersonChannel, PersonReply, PresentedQuestion } from '../../kernel/person.js';
import { answerSchema } from './answer-schema.js';
import { toQuestionFields, type QuestionField, type QuestionnaireSpec } from './field-spec.js';
import { readAnswer, type AnswerValue } from './parse-answer.js';
import { presentQuestion, newQuestionnaireId } from './present-question.js';
import { answeredEvent, questionEvent, questionnaireResultEvent } from './question-events.js';
import { noAnswer, type NoAnswerReason, type QuestionnaireResult } from './questionnaire-result.js';

/** Re-asks allowed in all, across fields: someone who keeps typing what is refused ends it. */
export const MAX_REASKS = 3;

export interface QuestionnaireOptions {
  signal: AbortSignal;
  emit: EmitEvent;
  /** Ties the questionnaire's events together; a fresh id when absent. */
  id?: string;
  /**
   * Checks the whole answer object; `answerSchema(fields)` when absent. Pass that object refined
   * to add checks across fields: issues on a field re-ask it, any other issue ends with no answer.
   */
  schema?: z.ZodType;
  maxReasks?: number;
  /** Set on every question asked (an MCP server's form): hosts and scripted people read it. */
  purpose?: PresentedQuestion['purpose'];
}

/** The person's reply, where nobody there, a canceled turn and a broken channel all read as no answer. */
async function replyFrom(person: PersonChannel, question: PresentedQuestion, signal: AbortSignal): Promise<PersonReply> {
  if (!person.present()) return { kind: 'away' };
  if (signal.aborted) return { kind: 'declined' };
  let onAbort: (() => void) | undefined;
  // A channel that ignores the signal must not keep a canceled turn waiting.
  const aborted = new Promise<PersonReply>((resolve) => {
    onAbort = () => resolve({ kind: 'declined' });
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([person.ask(question, signal), aborted]);
  } catch {
    return signal.aborted ? { kind: 'declined' } : { kind: 'away' };
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}

/** The first field-level issue in field order; undefined when an issue is about the whole object. */
function refusedField(issues: readonly z.core.$ZodIssue[], fields: readonly QuestionField[]): { index: number; message: string } | undefined {
  const names = fields.map((field) => field.name);
  if (issues.some((issue) => issue.path.length === 0 || !names.includes(String(issue.path[0])))) return undefined;
  const index = Math.min(...issues.map((issue) => names.indexOf(String(issue.path[0]))));
  const issue = issues.find((candidate) => String(candidate.path[0]) === names[index]);
  return issue ? { index, message: issue.message } : undefined;
}

/** The checked answers without the fields left out (an optional field nobody answered). */
export function definedOnly(data: unknown): Record<string, AnswerValue> {
  return Object.fromEntries(Object.entries(data as Record<string, unknown>).filter(([, value]) => value !== undefined)) as Record<string, AnswerValue>;
}

/**
 * Interviews the person one field at a time, then validates the whole answer. Never throws and
 * never waits on someone absent: every way of not getting an answer is one `no-answer` result.
 */
export async function runQuestionnaire(spec: QuestionnaireSpec, person: PersonChannel, options: QuestionnaireOptions): Promise<QuestionnaireResult> {
  const { signal, emit } = options;
  const questionnaireId = options.id ?? newQuestionnaireId();
  const fields = toQuestionFields(spec.fields);
  const schema = options.schema ?? answerSchema(fields);
  const maxReasks = options.maxReasks ?? MAX_REASKS;
  const answers: Record<string, unknown> = {};
  let introShown = false;
  let reasks = 0;

  const finish = (result: QuestionnaireResult): QuestionnaireResult => {
    emit(questionnaireResultEvent({ questionnaireId, ...result }));
    return result;
  };

  // Each field's own check, so an answer that cannot stand (nothing for a required field, "abc"
  // for a whole number) is refused at once, on that field, rather than after the questions that
  // follow it. Checks across fields wait for the whole answer; a schema that is not a plain
  // object of fields is only checked whole.
  const fieldSchemas = schema instanceof z.ZodObject ? (schema.shape as Record<string, z.ZodType>) : undefined;

  /** Asks one field; the reason when nobody answered. */
  const ask = async (index: number, error?: string): Promise<NoAnswerReason | undefined> => {
    const field = fields[index];
    const placed = presentQuestion(field, { questionnaireId, index, total: fields.length, intro: introShown ? undefined : spec.prompt, error });
    const question = options.purpose ? { ...placed, purpose: options.purpose } : placed;
    introShown = true;
    emit(questionEvent(question));
    const reply = await replyFrom(person, question, signal);
    if (reply.kind !== 'answer') {
      emit(answeredEvent({ questionnaireId, field: field.name, reason: reply.kind }));
      return reply.kind;
    }
    const answer = readAnswer(field, reply.text);
    answers[field.name] = answer;
    emit(answeredEvent({ questionnaireId, field: field.name, text: reply.text, answer }));
    const checked = fieldSchemas?.[field.name]?.safeParse(answer);
    if (!checked || checked.success) return undefined;
    if (reasks >= maxReasks) return 'refused';
    reasks++;
    return ask(index, checked.error.issues[0]?.message);
  };

  for (let index = 0; index < fields.length; index++) {
    const reason = await ask(index);
    if (reason) return finish(noAnswer(reason));
  }
  for (; ; reasks++) {
    const checked = schema.safeParse(answers);
    if (checked.success) return finish({ status: 'answered', answers: definedOnly(checked.data) });
    const refused = refusedField(checked.error.issues, fields);
    if (!refused || reasks >= maxReasks) return finish(noAnswer('refused'));
    const reason = await ask(refused.index, refused.message);
    if (reason) return finish(noAnswer(reason));
  }
}
