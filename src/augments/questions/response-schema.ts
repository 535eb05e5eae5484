import type { QuestionField } from './question-field.js';

type JsonSchema = Record<string, unknown>;

function typeSchema(field: QuestionField): JsonSchema {
  switch (field.type) {
    case 'text':
      return { type: 'string', minLength: 1 };
    case 'number':
      return { type: 'number' };
    case 'integer':
      return { type: 'integer' };
    case 'boolean':
      return { type: 'boolean' };
    case 'choice':
      return { type: 'string', enum: [...(field.options ?? [])] };
    case 'list':
      return { type: 'array', items: { type: 'string', minLength: 1 } };
  }
}

/**
 * The answers of a questionnaire as JSON Schema, keeping what the person is asked: each field's
 * question as its title, why its last answer was refused in its description, the choices' words,
 * the default and which fields are required. A web app draws one question per property.
 */
export function responseSchema(fields: readonly QuestionField[], errors: Readonly<Record<string, string>> = {}): JsonSchema {
  const properties = Object.fromEntries(
    fields.map((field) => {
      const error = errors[field.name];
      return [
        field.name,
        {
          ...typeSchema(field),
          title: field.question,
          description: error === undefined ? field.question : `${field.question} (the last answer was refused: ${error})`,
          ...(field.default !== undefined ? { default: field.default } : {}),
        },
      ];
    }),
  );
  const required = fields.filter((field) => field.required).map((field) => field.name);
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false };
}
