import type { CreateElicitationResponse, ElicitationPropertySchema, ElicitationSchema } from '@agentclientprotocol/sdk';
import { asTyped, DASH } from '../../augments/questions/index.js';
import type { PresentedQuestion, QuestionnaireAsk } from '../../kernel/person.js';

function property(question: PresentedQuestion): ElicitationPropertySchema {
  const refused = question.error === undefined ? '' : ` (the last answer was refused: ${question.error})`;
  const title = question.question;
  switch (question.type) {
    case 'number':
    case 'integer': {
      const fallback = question.default === undefined ? Number.NaN : Number(question.default);
      return { type: question.type, title, description: `${title}${refused}`, ...(Number.isFinite(fallback) ? { default: fallback } : {}) };
    }
    case 'boolean':
      return {
        type: 'boolean',
        title,
        description: `${title}${refused}`,
        ...(question.default === undefined ? {} : { default: /^(y|yes|true)$/i.test(question.default) }),
      };
    case 'choice':
      return {
        type: 'string',
        title,
        description: `${title}${refused}`,
        enum: [...(question.options ?? [])],
        ...(question.default === undefined ? {} : { default: question.default }),
      };
    case 'list':
      // An ACP form's arrays pick among fixed choices; a free list is typed as the terminal takes it.
      return {
        type: 'string',
        title,
        description: `${title}, separated by commas${refused}`,
        ...(question.default === undefined ? {} : { default: question.default }),
      };
    case 'text':
      return { type: 'string', title, description: `${title}${refused}`, ...(question.default === undefined ? {} : { default: question.default }) };
  }
}

/** The questionnaire as one flat form: one property per field, each carrying its question. */
export function elicitationSchema(ask: QuestionnaireAsk): ElicitationSchema {
  const required = ask.questions.filter((question) => question.required && question.default === undefined).map((question) => question.field);
  return {
    type: 'object',
    properties: Object.fromEntries(ask.questions.map((question) => [question.field, property(question)])),
    ...(required.length > 0 ? { required } : {}),
  };
}

/** The form's message: the questionnaire's prompt, and what to answer again after a refusal. */
export function elicitationMessage(ask: QuestionnaireAsk): string {
  const refused = ask.questions.filter((question) => question.error !== undefined).map((question) => `${question.question}: ${question.error}`);
  return refused.length > 0 ? `${ask.prompt}\n\nAnswer again: ${refused.join('; ')}` : ask.prompt;
}

/**
 * The form's content as the terminal would have read it typed: a field left out takes its
 * default (or stays empty where it may), as `-` does at the terminal.
 */
export function answeredTexts(ask: QuestionnaireAsk, response: CreateElicitationResponse): Record<string, string> | undefined {
  if (response.action !== 'accept') return undefined;
  const content = ('content' in response ? response.content : undefined) ?? {};
  const values = content as Record<string, unknown>;
  return Object.fromEntries(
    ask.questions.map((question) => [
      question.field,
      question.field in values ? asTyped(values[question.field]) : question.default !== undefined || !question.required ? DASH : '',
    ]),
  );
}
