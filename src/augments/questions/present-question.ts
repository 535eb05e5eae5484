import type { PresentedQuestion } from '../../kernel/person.js';
import { randomHex } from '../../session/ids.js';
import { defaultText, type QuestionField } from './field-spec.js';

export function newQuestionnaireId(): string {
  return `q_${randomHex(5)}`;
}

export interface Placement {
  questionnaireId: string;
  /** 0-based position of the field. */
  index: number;
  total: number;
  /** The questionnaire's introduction: only on the first question asked. */
  intro?: string;
  /** Zod's message about the previous answer, when the field is asked again. */
  error?: string;
}

/** The field makes the question: its line, its type's options, its default as the `-` hint. */
export function presentQuestion(field: QuestionField, placement: Placement): PresentedQuestion {
  const shownDefault = defaultText(field.default);
  return {
    questionnaireId: placement.questionnaireId,
    field: field.name,
    question: field.question,
    type: field.type,
    ...(field.options ? { options: [...field.options] } : {}),
    ...(shownDefault !== undefined ? { default: shownDefault } : {}),
    required: field.required,
    index: placement.index + 1,
    total: placement.total,
    ...(placement.intro !== undefined ? { intro: placement.intro } : {}),
    ...(placement.error !== undefined ? { error: placement.error } : {}),
  };
}
