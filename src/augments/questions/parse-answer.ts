import type { QuestionField } from './question-field.js';

export type { AnswerValue } from './question-field.js';

/** Typed on its own, takes the field's default (also when the field is asked again). */
export const DASH = '-';

const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i;
const YES = new Set(['yes', 'y', 'true']);
const NO = new Set(['no', 'n', 'false']);

function readChoice(options: readonly string[], text: string): string {
  if (/^\d+$/.test(text)) {
    const picked = options[Number(text) - 1];
    if (picked !== undefined) return picked;
  }
  const lower = text.toLowerCase();
  return options.find((option) => option.toLowerCase() === lower) ?? text;
}

/**
 * Reads the person's line as the field's type. Text that does not read as the type is kept as
 * typed, so the zod object refuses it with its own message; nothing typed reads as `undefined`
 * (a missing answer, which zod refuses for a required field).
 */
export function readAnswer(field: QuestionField, line: string): unknown {
  const text = line.trim();
  if (text === DASH && field.default !== undefined) return field.default;
  // `-` takes the default; an optional field with none is left empty rather than answered "-".
  if (text === DASH && !field.required) return undefined;
  if (text === '') return undefined;
  switch (field.type) {
    case 'text':
      return text;
    case 'number':
    case 'integer':
      return NUMBER.test(text) ? Number(text) : text;
    case 'boolean': {
      const lower = text.toLowerCase();
      if (YES.has(lower)) return true;
      if (NO.has(lower)) return false;
      return text;
    }
    case 'choice':
      return readChoice(field.options ?? [], text);
    case 'list': {
      const items = text
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item !== '');
      return items.length > 0 ? items : undefined;
    }
  }
}
