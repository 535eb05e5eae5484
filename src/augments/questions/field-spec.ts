import { z } from 'zod';
import type { QuestionFieldType } from '../../kernel/person.js';
import { fieldValueSchema } from './answer-schema.js';
import { readAnswer } from './parse-answer.js';
import type { AnswerValue, QuestionField } from './question-field.js';

export const FIELD_TYPES = ['text', 'number', 'integer', 'boolean', 'choice', 'list'] as const satisfies readonly QuestionFieldType[];

export const MAX_FIELDS = 20;
export const MAX_OPTIONS = 30;
export const MAX_PROMPT_CHARS = 2000;

/** A field as it is declared (by the model's ask_user call or a workflow's `ask:`), before normalizing. */
const fieldSpecShape = z.object({
  name: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'name must start with a letter or _ and hold only letters, digits and _ (at most 64): it is the key of the answer')
    .describe('Key of this answer in the result, e.g. "environment".'),
  question: z.string().trim().min(1).max(500).optional().describe('The question the person reads; the name is asked when absent.'),
  type: z.enum(FIELD_TYPES).describe('text, number, integer, boolean (yes/no), choice (one of options) or list (comma separated).'),
  options: z.array(z.string().trim().min(1)).min(1).max(MAX_OPTIONS).optional().describe('For type choice only: the answers offered.'),
  default: z
    .union([z.string(), z.number(), z.boolean(), z.array(z.string())])
    .optional()
    .describe('Taken when the person types "-".'),
  required: z.boolean().optional().describe('False lets the person leave it empty; true when absent.'),
});

export type FieldSpec = z.infer<typeof fieldSpecShape>;

export type { QuestionField } from './question-field.js';

/** How a default reads on screen and in the `-` hint: lists joined by commas, booleans as yes/no. */
export function defaultText(value: FieldSpec['default']): string | undefined {
  if (value === undefined) return undefined;
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.join(', ');
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return String(value);
}

/** `max_rounds` → "max rounds", `startDate` → "start date": a name read as words when no question is given. */
export function nameInWords(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/_+/)
    .join(' ')
    .trim()
    .toLowerCase();
  return words === '' ? name : words;
}

function baseField(spec: FieldSpec): QuestionField {
  return {
    name: spec.name,
    question: spec.question ?? nameInWords(spec.name),
    type: spec.type,
    ...(spec.type === 'choice' && spec.options ? { options: spec.options } : {}),
    required: spec.required ?? true,
  };
}

/** The default read the way the person's own answer would be read, so `-` and typing it agree. */
function parsedDefault(spec: FieldSpec): { value?: AnswerValue; error?: string } {
  // An empty list is a list: nothing to read back from text, and nothing wrong with it.
  if (spec.type === 'list' && Array.isArray(spec.default) && spec.default.length === 0) return { value: [] };
  const text = defaultText(spec.default);
  if (text === undefined) return {};
  const field = baseField(spec);
  const checked = fieldValueSchema({ ...field, required: true }).safeParse(readAnswer(field, text));
  if (!checked.success) return { error: checked.error.issues[0]?.message ?? 'not valid' };
  return { value: checked.data as AnswerValue };
}

export const fieldSpecSchema = fieldSpecShape.superRefine((spec, ctx) => {
  if (spec.type === 'choice' && !spec.options) {
    ctx.addIssue({ code: 'custom', path: ['options'], message: `field "${spec.name}" is a choice: list its options` });
    return;
  }
  if (spec.type !== 'choice' && spec.options) {
    ctx.addIssue({ code: 'custom', path: ['options'], message: `field "${spec.name}": options are only for type choice (it is ${spec.type})` });
  }
  if (spec.options && new Set(spec.options.map((o) => o.toLowerCase())).size !== spec.options.length) {
    ctx.addIssue({ code: 'custom', path: ['options'], message: `field "${spec.name}": options must differ (ignoring case)` });
  }
  const { error } = parsedDefault(spec);
  if (error !== undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['default'],
      message: `field "${spec.name}": default ${JSON.stringify(spec.default)} does not fit type ${spec.type}: ${error}`,
    });
  }
});

/** A questionnaire as declared: the introduction shown once, then one question per field. */
export const questionnaireSpecSchema = z
  .object({
    prompt: z
      .string()
      .trim()
      .min(1, 'prompt must not be empty')
      .max(MAX_PROMPT_CHARS, `prompt must be at most ${MAX_PROMPT_CHARS} characters`)
      .describe('Introduces the questions; shown once, above the first.'),
    fields: z
      .array(fieldSpecSchema)
      .min(1, 'ask at least one field')
      .max(MAX_FIELDS, `ask at most ${MAX_FIELDS} fields`)
      .describe('One question per field, asked in this order.'),
  })
  .superRefine((spec, ctx) => {
    const seen = new Set<string>();
    spec.fields.forEach((field, index) => {
      if (seen.has(field.name))
        ctx.addIssue({ code: 'custom', path: ['fields', index, 'name'], message: `field name "${field.name}" is used twice; names must be unique` });
      seen.add(field.name);
    });
  });

export type QuestionnaireSpec = z.infer<typeof questionnaireSpecSchema>;

/** Normalizes checked specs (from `questionnaireSpecSchema`) into fields ready to ask. */
export function toQuestionFields(specs: readonly FieldSpec[]): QuestionField[] {
  return specs.map((spec) => {
    const { value } = parsedDefault(spec);
    return value === undefined ? baseField(spec) : { ...baseField(spec), default: value };
  });
}
