/** What hosts and the workflow use of the questionnaire: one import for the wiring. */
export {
  questionnaireSpecSchema,
  toQuestionFields,
  defaultText,
  FIELD_TYPES,
  type FieldSpec,
  type QuestionField,
  type QuestionnaireSpec,
} from './field-spec.js';
export { answerSchema, fieldValueSchema } from './answer-schema.js';
export { readAnswer, DASH, type AnswerValue } from './parse-answer.js';
export { asTyped } from './typed-answer.js';
export { presentQuestion } from './present-question.js';
export { runQuestionnaire, MAX_REASKS, type QuestionnaireOptions } from './run-questionnaire.js';
export { noAnswer, type NoAnswerReason, type QuestionnaireResult } from './questionnaire-result.js';
export {
  QUESTION_EVENT,
  ANSWERED_EVENT,
  QUESTIONNAIRE_RESULT_EVENT,
  questionOf,
  answeredOf,
  answeredLine,
  answersLine,
  questionnaireResultOf,
  type AnsweredValue,
  type QuestionnaireResultValue,
} from './question-events.js';
export { runDeferrableQuestionnaire, type PendingQuestionnaire } from './deferrable-questionnaire.js';
export { responseSchema } from './response-schema.js';
export { schemaForm, type ObjectSchema, type SchemaForm } from './json-schema-form.js';
