import type { PresentedQuestion } from '../../../kernel/person.js';

/** What kind of answer the field takes, in a few words. */
function answerKind(question: PresentedQuestion): string | undefined {
  switch (question.type) {
    case 'choice':
      return '↑↓ and Enter, or type its number or text';
    case 'boolean':
      return 'yes or no';
    case 'list':
      return 'one line, separated by commas';
    case 'number':
      return 'a number';
    case 'integer':
      return 'a whole number';
    case 'text':
      return undefined;
  }
}

/** The hint under the answer line: the field's kind of answer, its default, and the way out. */
export function questionHints(question: PresentedQuestion): string[] {
  return [
    answerKind(question),
    question.default !== undefined ? `or - for ${question.default}` : undefined,
    question.required ? undefined : 'Enter on nothing skips it',
    'Esc declines',
  ].filter((hint): hint is string => hint !== undefined);
}
