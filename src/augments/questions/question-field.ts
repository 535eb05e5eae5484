import type { QuestionFieldType } from '../../kernel/person.js';

/** What an answer becomes once read: the field's type, or the text as typed when it does not read as one. */
export type AnswerValue = string | number | boolean | string[];

/**
 * A field ready to ask: the question filled in, `required` decided, the default parsed to the
 * field's type. Its own file, so reading and checking answers need not import the field specs.
 */
export interface QuestionField {
  name: string;
  question: string;
  type: QuestionFieldType;
  options?: string[];
  required: boolean;
  default?: AnswerValue;
}
