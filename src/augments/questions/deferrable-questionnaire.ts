import { z } from 'zod';
import type { PersonChannel, PresentedQuestion } from '../../kernel/person.js';
import { answerSchema } from './answer-schema.js';
import { toQuestionFields, type QuestionField, type QuestionnaireSpec } from './field-spec.js';
import { readAnswer } from './parse-answer.js';
import { presentQuestion } from './present-question.js';
import { answeredEvent, questionEvent, questionnaireResultEvent } from './question-events.js';
import { noAnswer, type QuestionnaireResult } from './questionnaire-result.js';
import { responseSchema } from './response-schema.js';
import { definedOnly, MAX_REASKS, runQuestionnaire, type QuestionnaireOptions } from './run-questionnaire.js';

/** The questionnaire is held open: the call that asked it ends deferred and a later run answers. */
export type PendingQuestionnaire = { status: 'pending' };

/**
 * A questionnaire asked by a tool call (or a workflow ask state), which can wait for its answers past the run: where the
 * person answers the whole questionnaire at once (`askQuestionnaire`), every field is read and
 * checked with the terminal's rules and messages; refused fields are asked again (and only they),
 * within the same bound on re-asks; where nobody answers now it is pending. Elsewhere it is the
 * field-by-field interview of `runQuestionnaire`.
 */
export async function runDeferrableQuestionnaire(
  spec: QuestionnaireSpec,
  person: PersonChannel,
  options: QuestionnaireOptions & { id: string; toolCallId?: string },
): Promise<QuestionnaireResult | PendingQuestionnaire> {
  const askAll = person.askQuestionnaire?.bind(person);
  if (!askAll || !person.present()) return runQuestionnaire(spec, person, options);
  const { emit, signal } = options;
  const questionnaireId = options.id;
  const fields = toQuestionFields(spec.fields);
  const schema = options.schema ?? answerSchema(fields);
  const maxReasks = options.maxReasks ?? MAX_REASKS;
  const fieldSchemas = schema instanceof z.ZodObject ? (schema.shape as Record<string, z.ZodType>) : undefined;
  const finish = (result: QuestionnaireResult): QuestionnaireResult => {
    emit(questionnaireResultEvent({ questionnaireId, ...result }));
    return result;
  };
  const present = (field: QuestionField, index: number, error?: string): PresentedQuestion => {
    const placed = presentQuestion(field, { questionnaireId, index, total: fields.length, intro: index === 0 ? spec.prompt : undefined, error });
    return options.purpose ? { ...placed, purpose: options.purpose } : placed;
  };
  const put = async (asked: readonly QuestionField[], errors: Record<string, string>, accepted: Record<string, string>, reasks: number) => {
    const questions = asked.map((field) => present(field, fields.indexOf(field), errors[field.name]));
    const reply = await askAll(
      {
        questionnaireId,
        ...(options.toolCallId === undefined ? {} : { toolCallId: options.toolCallId }),
        prompt: spec.prompt,
        questions,
        responseSchema: responseSchema(asked, errors),
        accepted,
        reasks,
        ...(options.purpose ? { purpose: options.purpose } : {}),
      },
      signal,
    );
    // The questions are said in the run that asks them (a plain chat shows them as text); the
    // run that brings the answers says what was answered.
    if (reply.kind === 'pending') questions.forEach((question) => emit(questionEvent(question)));
    return reply;
  };

  // An `answered` event per field, as the field-by-field interview has, so the session log reads alike.
  const answers: Record<string, unknown> = {};
  const accepted: Record<string, string> = {};
  let asked: readonly QuestionField[] = fields;
  let errors: Record<string, string> = {};
  let reasks = 0;
  // A host that answers within the run (ACP's form) answers each re-ask at once; one that holds
  // the questionnaire open past the run (serve's interrupts) leaves the re-ask pending.
  for (;;) {
    const reply = await put(asked, errors, accepted, reasks);
    if (reply.kind === 'pending') return { status: 'pending' };
    if (reply.kind === 'away') return finish(noAnswer('away'));
    if (reply.kind === 'declined') {
      emit(answeredEvent({ questionnaireId, field: asked[0].name, reason: 'declined' }));
      return finish(noAnswer('declined'));
    }
    errors = {};
    asked.forEach((field) => {
      const text = reply.texts[field.name] ?? '';
      const answer = readAnswer(field, text);
      answers[field.name] = answer;
      emit(answeredEvent({ questionnaireId, field: field.name, text, answer }));
      const checked = fieldSchemas?.[field.name]?.safeParse(answer);
      if (checked && !checked.success) {
        errors[field.name] = checked.error.issues[0]?.message ?? 'not valid';
        delete accepted[field.name];
      } else accepted[field.name] = text;
    });
    if (Object.keys(errors).length === 0) {
      const whole = schema.safeParse(answers);
      if (whole.success) return finish({ status: 'answered', answers: definedOnly(whole.data) });
      const names = fields.map((field) => field.name);
      for (const issue of whole.error.issues) {
        const name = String(issue.path[0] ?? '');
        // An issue about the whole object names no field to ask again: the answer cannot stand.
        if (!names.includes(name)) return finish(noAnswer('refused'));
        errors[name] ??= issue.message;
        delete accepted[name];
      }
    }
    asked = fields.filter((field) => errors[field.name] !== undefined);
    reasks = reply.reasks + asked.length;
    if (reasks > maxReasks) return finish(noAnswer('refused'));
  }
}
