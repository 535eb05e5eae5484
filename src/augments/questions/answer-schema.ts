import { z } from 'zod';
import type { QuestionField } from './question-field.js';

/** Also said on the spot when a required field is answered with nothing. */
export const REQUIRED = 'an answer is required';

/** `"abc"` for a message about what was typed; undefined means nothing was. */
function shown(input: unknown): string {
  return Array.isArray(input) ? JSON.stringify(input.join(', ')) : JSON.stringify(input);
}

/** Zod's message is what the person reads when a field is asked again, so each says what would do. */
function requiredOr(message: (input: unknown) => string) {
  return { error: (issue: { input?: unknown }) => (issue.input === undefined ? REQUIRED : message(issue.input)) };
}

function valueSchema(field: QuestionField): z.ZodType {
  switch (field.type) {
    case 'text':
      return z.string(requiredOr(() => 'expected text')).min(1, REQUIRED);
    case 'number':
      return z.number(requiredOr((input) => `${shown(input)} is not a number; type digits, such as 3 or 2.5`));
    case 'integer':
      return z
        .number(requiredOr((input) => `${shown(input)} is not a whole number; type digits, such as 3`))
        .int({ error: (issue) => `${shown(issue.input)} is not a whole number; type digits, such as 3` });
    case 'boolean':
      return z.boolean(requiredOr((input) => `${shown(input)} is neither yes nor no; answer yes or no`));
    case 'choice': {
      const options = field.options ?? [];
      const listed = options.map((option, i) => `${i + 1}. ${option}`).join(', ');
      return z.enum(
        options as [string, ...string[]],
        requiredOr((input) => `${shown(input)} is not one of the options: ${listed}`),
      );
    }
    case 'list': {
      const items = z.array(
        z.string().min(1),
        requiredOr(() => 'expected items separated by commas'),
      );
      // A list that defaults to none may be answered with none (`-`); otherwise it needs an item.
      const emptyAllowed = Array.isArray(field.default) && field.default.length === 0;
      return emptyAllowed ? items : items.min(1, 'list at least one item, separated by commas');
    }
  }
}

/** The schema of one field's answer: its type's, optional when the field is not required. */
export function fieldValueSchema(field: QuestionField): z.ZodType {
  const schema = valueSchema(field);
  return field.required ? schema : schema.optional();
}

/** The zod object the answers must satisfy: one key per field. */
export function answerSchema(fields: readonly QuestionField[]): z.ZodObject {
  return z.object(Object.fromEntries(fields.map((field) => [field.name, fieldValueSchema(field)])));
}
