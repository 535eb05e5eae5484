import { z } from 'zod';
import { fieldValueSchema } from './answer-schema.js';
import { toQuestionFields, type FieldSpec, type QuestionnaireSpec } from './field-spec.js';

type Property = Record<string, unknown>;

/** An offered value and the label the person reads for it (the title when the server gave one). */
interface Offered {
  value: string;
  label: string;
}

/** A form as the questions augment asks it, with the schema that turns answers into the asker's values. */
export interface SchemaForm {
  spec: QuestionnaireSpec;
  schema: z.ZodType;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** `enum` (with legacy `enumNames`), or `oneOf`/`anyOf` of `{const, title}`: the values offered. */
function offeredOf(schema: Record<string, unknown>): Offered[] | undefined {
  if (Array.isArray(schema.enum)) {
    const names = Array.isArray(schema.enumNames) ? schema.enumNames : [];
    return schema.enum.map((value, index) => ({ value: String(value), label: typeof names[index] === 'string' ? names[index] : String(value) }));
  }
  const list = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : undefined;
  if (!list) return undefined;
  return list
    .filter(isRecord)
    .map((option) => ({ value: String(option.const), label: typeof option.title === 'string' ? option.title : String(option.const) }));
}

const FORMAT_HINT: Record<string, string> = {
  email: 'an email address',
  uri: 'a web address, such as https://example.com',
  date: 'a date, YYYY-MM-DD',
  'date-time': 'a date and time, such as 2026-03-01T09:30:00Z',
};

function formatSchema(format: unknown): z.ZodType<string, string> {
  switch (format) {
    case 'email':
      return z.email({ error: (issue) => `${JSON.stringify(issue.input)} is not an email address; type one such as ada@example.com` });
    case 'uri':
      return z.url({ error: (issue) => `${JSON.stringify(issue.input)} is not a web address; type one such as https://example.com` });
    case 'date':
      return z.iso.date({ error: (issue) => `${JSON.stringify(issue.input)} is not a date; type it as YYYY-MM-DD, such as 2026-03-01` });
    case 'date-time':
      return z.iso.datetime({ offset: true, error: (issue) => `${JSON.stringify(issue.input)} is not a date and time; type one such as 2026-03-01T09:30:00Z` });
    default:
      return z.string();
  }
}

function rangeText(schema: Record<string, unknown>, low: string, high: string): string | undefined {
  const min = typeof schema[low] === 'number' ? schema[low] : undefined;
  const max = typeof schema[high] === 'number' ? schema[high] : undefined;
  if (min !== undefined && max !== undefined) return `${min} to ${max}`;
  if (min !== undefined) return `at least ${min}`;
  if (max !== undefined) return `at most ${max}`;
  return undefined;
}

/** One value of a multi-select, by its label or its value, read as the server's value. */
function pick(offered: readonly Offered[], text: string): string | undefined {
  const lower = text.trim().toLowerCase();
  return offered.find((option) => option.label.toLowerCase() === lower || option.value.toLowerCase() === lower)?.value;
}

interface Converted {
  spec: FieldSpec;
  /** The answer's schema, turning labels into values; undefined keeps the questionnaire's own. */
  schema?: z.ZodType;
}

function convert(name: string, property: Property, required: boolean): Converted {
  const schema = property as Record<string, unknown>;
  const title = typeof schema.title === 'string' ? schema.title : undefined;
  const description = typeof schema.description === 'string' ? schema.description : undefined;
  const base = title && description ? `${title}: ${description}` : (description ?? title ?? name);
  const spec = (extra: Partial<FieldSpec> & Pick<FieldSpec, 'type'>, hint?: string): FieldSpec => ({
    name,
    question: hint ? `${base} (${hint})` : base,
    required,
    ...extra,
  });

  if (schema.type === 'array' && offeredOf(isRecord(schema.items) ? schema.items : {}) === undefined) {
    // A list of free words (an auggy questionnaire's list field): the questionnaire's own reading.
    const defaults = Array.isArray(schema.default) ? { default: schema.default.map(String) } : {};
    return { spec: spec({ type: 'list', ...defaults }) };
  }
  if (schema.type === 'array') {
    const offered = offeredOf(isRecord(schema.items) ? schema.items : {}) ?? [];
    const defaults = Array.isArray(schema.default)
      ? schema.default.map(String).map((value) => offered.find((o) => o.value === value)?.label ?? value)
      : undefined;
    const range = rangeText(schema, 'minItems', 'maxItems');
    const labels = offered.map((option) => option.label).join(', ');
    const minItems = typeof schema.minItems === 'number' ? schema.minItems : 1;
    const maxItems = typeof schema.maxItems === 'number' ? schema.maxItems : undefined;
    let answer: z.ZodType = z
      .array(z.string(), { error: (issue) => (issue.input === undefined ? 'an answer is required' : 'expected items separated by commas') })
      .transform((items, ctx) => {
        const values = items.map((item) => pick(offered, item));
        const wrong = items.filter((_, index) => values[index] === undefined);
        if (wrong.length > 0)
          ctx.addIssue({
            code: 'custom',
            message: `${wrong.map((w) => JSON.stringify(w)).join(', ')} ${wrong.length === 1 ? 'is' : 'are'} not among the choices: ${labels}`,
          });
        return [...new Set(values.filter((value): value is string => value !== undefined))];
      })
      .refine((values) => values.length >= minItems, { message: `pick at least ${minItems} of: ${labels}` })
      .refine((values) => maxItems === undefined || values.length <= maxItems, { message: `pick at most ${maxItems}` });
    if (!required) answer = answer.optional();
    return {
      spec: spec({ type: 'list', ...(defaults ? { default: defaults } : {}) }, `one or more of: ${labels}${range ? `; ${range}` : ''}`),
      schema: answer,
    };
  }

  const offered = schema.type === 'string' ? offeredOf(schema) : undefined;
  if (offered && offered.length > 0) {
    const fallback = typeof schema.default === 'string' ? offered.find((o) => o.value === schema.default)?.label : undefined;
    const labels = offered.map((option) => option.label) as [string, ...string[]];
    let answer: z.ZodType = z
      .enum(labels, {
        error: (issue) =>
          issue.input === undefined
            ? 'an answer is required'
            : `${JSON.stringify(issue.input)} is not one of the options: ${labels.map((l, i) => `${i + 1}. ${l}`).join(', ')}`,
      })
      .transform((label) => offered.find((option) => option.label === label)?.value ?? label);
    if (!required) answer = answer.optional();
    return { spec: spec({ type: 'choice', options: labels, ...(fallback ? { default: fallback } : {}) }), schema: answer };
  }

  const fallback = schema.default;
  const withDefault = (value: unknown) => (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? { default: value } : {});
  switch (schema.type) {
    case 'boolean':
      return { spec: spec({ type: 'boolean', ...withDefault(fallback) }) };
    case 'number':
    case 'integer': {
      const type = schema.type;
      const range = rangeText(schema, 'minimum', 'maximum');
      const field = spec({ type, ...withDefault(fallback) }, range);
      let answer = fieldValueSchema({ ...toQuestionFields([field])[0], required: true });
      if (typeof schema.minimum === 'number') {
        const min = schema.minimum;
        answer = answer.refine((value) => typeof value !== 'number' || value >= min, { message: `must be at least ${min}` });
      }
      if (typeof schema.maximum === 'number') {
        const max = schema.maximum;
        answer = answer.refine((value) => typeof value !== 'number' || value <= max, { message: `must be at most ${max}` });
      }
      return { spec: field, schema: required ? answer : answer.optional() };
    }
    default: {
      const hint = typeof schema.format === 'string' ? FORMAT_HINT[schema.format] : undefined;
      const field = spec({ type: 'text', ...withDefault(fallback) }, hint);
      let answer: z.ZodType = z
        .string({ error: (issue) => (issue.input === undefined ? 'an answer is required' : 'expected text') })
        .min(1, 'an answer is required')
        .pipe(formatSchema(schema.format));
      if (typeof schema.minLength === 'number')
        answer = answer.refine((v) => typeof v !== 'string' || v.length >= Number(schema.minLength), {
          message: `type at least ${schema.minLength} characters`,
        });
      if (typeof schema.maxLength === 'number')
        answer = answer.refine((v) => typeof v !== 'string' || v.length <= Number(schema.maxLength), {
          message: `type at most ${schema.maxLength} characters`,
        });
      return { spec: field, schema: required ? answer : answer.optional() };
    }
  }
}

/** A JSON Schema of an object's answers, as MCP's forms and auggy's interrupts carry one. */
export interface ObjectSchema {
  properties?: Record<string, unknown>;
  required?: readonly string[];
}

/**
 * A form's JSON Schema as a questionnaire: one question per property, in the order the schema
 * writes them (an MCP server's elicitation form, a remote agent's questionnaire). Choices show
 * the schema's titles and answer with its values.
 */
export function schemaForm(schema: ObjectSchema, prompt: string): SchemaForm {
  const properties = Object.entries(schema.properties ?? {}).filter((entry): entry is [string, Property] => isRecord(entry[1]));
  const required = new Set(schema.required ?? []);
  const converted = properties.map(([name, property]) => convert(name, property, required.has(name)));
  const fields = toQuestionFields(converted.map((c) => c.spec));
  const shape = Object.fromEntries(converted.map((c, index) => [c.spec.name, c.schema ?? fieldValueSchema(fields[index])]));
  return { spec: { prompt, fields: converted.map((c) => c.spec) }, schema: z.object(shape) };
}
