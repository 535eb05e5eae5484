import { describe, expect, it } from 'vitest';
import { answerSchema } from '../../../src/augments/questions/answer-schema.js';
import { questionnaireSpecSchema, toQuestionFields, type FieldSpec } from '../../../src/augments/questions/field-spec.js';
import { readAnswer } from '../../../src/augments/questions/parse-answer.js';

function field(spec: FieldSpec) {
  return toQuestionFields(questionnaireSpecSchema.parse({ prompt: 'p', fields: [spec] }).fields)[0];
}

/** What zod says about one field's answer: the value, or its message. */
function check(spec: FieldSpec, line: string): unknown {
  const f = field(spec);
  const parsed = answerSchema([f]).safeParse({ [f.name]: readAnswer(f, line) });
  return parsed.success ? parsed.data[f.name] : { error: parsed.error.issues[0].message };
}

describe('each type reads the line its own way', () => {
  it('text: trimmed as typed; nothing is no answer', () => {
    expect(check({ name: 't', type: 'text' }, '  api-west  ')).toBe('api-west');
    expect(check({ name: 't', type: 'text' }, '   ')).toEqual({ error: 'an answer is required' });
  });

  it('number and integer: digits read as numbers, anything else refused with what was typed', () => {
    expect(check({ name: 'n', type: 'number' }, '2.5')).toBe(2.5);
    expect(check({ name: 'n', type: 'number' }, '-3e2')).toBe(-300);
    expect(check({ name: 'n', type: 'number' }, 'three')).toEqual({ error: '"three" is not a number; type digits, such as 3 or 2.5' });
    expect(check({ name: 'i', type: 'integer' }, '4')).toBe(4);
    expect(check({ name: 'i', type: 'integer' }, '4.5')).toEqual({ error: '4.5 is not a whole number; type digits, such as 3' });
    expect(check({ name: 'i', type: 'integer' }, 'x')).toEqual({ error: '"x" is not a whole number; type digits, such as 3' });
  });

  it('boolean: yes/no/y/n/true/false in any case', () => {
    for (const yes of ['yes', 'Y', 'TRUE']) expect(check({ name: 'b', type: 'boolean' }, yes)).toBe(true);
    for (const no of ['no', 'n', 'False']) expect(check({ name: 'b', type: 'boolean' }, no)).toBe(false);
    expect(check({ name: 'b', type: 'boolean' }, 'maybe')).toEqual({ error: '"maybe" is neither yes nor no; answer yes or no' });
  });

  it('choice: by number, by option text in any case; otherwise refused with the options', () => {
    const env: FieldSpec = { name: 'env', type: 'choice', options: ['staging', 'Production'] };
    expect(check(env, '2')).toBe('Production');
    expect(check(env, 'PRODUCTION')).toBe('Production');
    expect(check(env, 'staging')).toBe('staging');
    expect(check(env, '3')).toEqual({ error: '"3" is not one of the options: 1. staging, 2. Production' });
    expect(check(env, 'prod')).toEqual({ error: '"prod" is not one of the options: 1. staging, 2. Production' });
  });

  it('list: comma separated, items trimmed, empty items dropped', () => {
    expect(check({ name: 'l', type: 'list' }, 'eu-west, us-east ,, ap-south')).toEqual(['eu-west', 'us-east', 'ap-south']);
    expect(check({ name: 'l', type: 'list' }, ' , ')).toEqual({ error: 'an answer is required' });
  });

  it('a field that is not required may be left empty', () => {
    expect(check({ name: 'note', type: 'text', required: false }, '')).toBeUndefined();
    expect(check({ name: 'n', type: 'number', required: false }, 'x')).toEqual({ error: '"x" is not a number; type digits, such as 3 or 2.5' });
  });
});

describe('the dash', () => {
  it('takes the default, typed as the field', () => {
    expect(check({ name: 'n', type: 'integer', default: 3 }, '-')).toBe(3);
    expect(check({ name: 'b', type: 'boolean', default: 'yes' }, ' - ')).toBe(true);
    expect(check({ name: 'l', type: 'list', default: 'a, b' }, '-')).toEqual(['a', 'b']);
    expect(check({ name: 'c', type: 'choice', options: ['x', 'y'], default: 2 }, '-')).toBe('y');
  });

  it('without a default it is just what was typed', () => {
    expect(check({ name: 't', type: 'text' }, '-')).toBe('-');
    expect(check({ name: 'n', type: 'number' }, '-')).toEqual({ error: '"-" is not a number; type digits, such as 3 or 2.5' });
  });
});

describe('defaults and empty answers as packs write them', () => {
  it('a list may default to the empty list, and "-" takes it', () => {
    expect(questionnaireSpecSchema.safeParse({ prompt: 'p', fields: [{ name: 'tags', type: 'list', default: [] }] }).success).toBe(true);
    expect(check({ name: 'tags', type: 'list', default: [] }, '-')).toEqual([]);
    expect(check({ name: 'tags', type: 'list', default: [] }, 'a, b')).toEqual(['a', 'b']);
  });

  it('"-" on an optional field with no default leaves it empty instead of answering "-"', () => {
    expect(check({ name: 'note', type: 'text', required: false }, '-')).toBeUndefined();
    expect(check({ name: 'count', type: 'integer', required: false }, '-')).toBeUndefined();
    expect(check({ name: 'note', type: 'text' }, '-')).toBe('-');
  });
});
