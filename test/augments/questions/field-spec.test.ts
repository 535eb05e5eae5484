import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { questionnaireSpecSchema, toQuestionFields, type FieldSpec } from '../../../src/augments/questions/field-spec.js';
import { presentQuestion } from '../../../src/augments/questions/present-question.js';

function fields(...specs: FieldSpec[]) {
  return toQuestionFields(questionnaireSpecSchema.parse({ prompt: 'Deploy settings', fields: specs }).fields);
}

function problems(spec: unknown): string {
  const parsed = questionnaireSpecSchema.safeParse(spec);
  if (parsed.success) throw new Error('expected the spec to be refused');
  return z.prettifyError(parsed.error);
}

describe('the field makes the question', () => {
  const placement = { questionnaireId: 'q_1', index: 1, total: 3 };

  it('its question, or its name where it has none, headed by its place', () => {
    const [named, bare] = fields({ name: 'env', question: 'Which environment?', type: 'text' }, { name: 'owner', type: 'text' });
    expect(presentQuestion(named, placement)).toEqual({
      questionnaireId: 'q_1',
      field: 'env',
      question: 'Which environment?',
      type: 'text',
      required: true,
      index: 2,
      total: 3,
    });
    expect(presentQuestion(bare, placement).question).toBe('owner');
  });

  it('a name without its own question is asked in words: max_rounds as "max rounds", startDate as "start date"', () => {
    const [snake, camel] = fields({ name: 'max_rounds', type: 'integer' }, { name: 'startDate', type: 'text' });
    expect(presentQuestion(snake, placement).question).toBe('max rounds');
    expect(presentQuestion(camel, placement).question).toBe('start date');
  });

  it('an empty list default is shown as none', () => {
    const [tags] = fields({ name: 'tags', type: 'list', default: [] });
    expect(presentQuestion(tags, placement)).toMatchObject({ default: 'none' });
  });

  it('a choice offers its options; a boolean, list and number carry their type', () => {
    const [choice, flag, list, count] = fields(
      { name: 'env', type: 'choice', options: ['staging', 'production'] },
      { name: 'confirm', type: 'boolean' },
      { name: 'regions', type: 'list' },
      { name: 'replicas', type: 'integer' },
    );
    expect(presentQuestion(choice, placement)).toMatchObject({ type: 'choice', options: ['staging', 'production'] });
    expect(presentQuestion(flag, placement)).toMatchObject({ type: 'boolean' });
    expect(presentQuestion(flag, placement).options).toBeUndefined();
    expect(presentQuestion(list, placement)).toMatchObject({ type: 'list' });
    expect(presentQuestion(count, placement)).toMatchObject({ type: 'integer' });
  });

  it('a default is shown as text: lists joined by commas, booleans as yes/no', () => {
    const shown = fields(
      { name: 'replicas', type: 'integer', default: 3 },
      { name: 'confirm', type: 'boolean', default: false },
      { name: 'regions', type: 'list', default: ['eu-west', 'us-east'] },
      { name: 'env', type: 'choice', options: ['staging', 'production'], default: 'staging' },
    ).map((field) => presentQuestion(field, placement).default);
    expect(shown).toEqual(['3', 'no', 'eu-west, us-east', 'staging']);
  });

  it('the intro and the previous error travel when given; required follows the field', () => {
    const [field] = fields({ name: 'note', type: 'text', required: false });
    expect(presentQuestion(field, { ...placement, intro: 'A few things first.', error: 'an answer is required' })).toMatchObject({
      intro: 'A few things first.',
      error: 'an answer is required',
      required: false,
    });
  });

  it('defaults are read like answers: "3" for an integer is 3, a choice default in any case is the option', () => {
    const [count, env] = fields({ name: 'replicas', type: 'integer', default: '3' }, { name: 'env', type: 'choice', options: ['Staging'], default: 'staging' });
    expect(count.default).toBe(3);
    expect(env.default).toBe('Staging');
  });
});

describe('field specs are checked, with messages the model can act on', () => {
  it('a choice without options, options on another type, repeated options', () => {
    expect(problems({ prompt: 'p', fields: [{ name: 'env', type: 'choice' }] })).toContain('field "env" is a choice: list its options');
    expect(problems({ prompt: 'p', fields: [{ name: 'n', type: 'number', options: ['1'] }] })).toContain('options are only for type choice');
    expect(problems({ prompt: 'p', fields: [{ name: 'e', type: 'choice', options: ['a', 'A'] }] })).toContain('options must differ');
  });

  it('a default that does not fit the type', () => {
    expect(problems({ prompt: 'p', fields: [{ name: 'replicas', type: 'integer', default: 2.5 }] })).toContain(
      'field "replicas": default 2.5 does not fit type integer: 2.5 is not a whole number',
    );
    expect(problems({ prompt: 'p', fields: [{ name: 'env', type: 'choice', options: ['a', 'b'], default: 'c' }] })).toContain(
      'is not one of the options: 1. a, 2. b',
    );
  });

  it('names are answer keys: unique identifiers', () => {
    expect(problems({ prompt: 'p', fields: [{ name: 'my env', type: 'text' }] })).toContain('name must start with a letter or _');
    expect(
      problems({
        prompt: 'p',
        fields: [
          { name: 'a', type: 'text' },
          { name: 'a', type: 'number' },
        ],
      }),
    ).toContain('field name "a" is used twice');
  });

  it('an empty prompt, no fields, an unknown type', () => {
    expect(problems({ prompt: ' ', fields: [{ name: 'a', type: 'text' }] })).toContain('prompt must not be empty');
    expect(problems({ prompt: 'p', fields: [] })).toContain('ask at least one field');
    expect(problems({ prompt: 'p', fields: [{ name: 'a', type: 'date' }] })).toMatch(/fields\[0\]\.type/);
  });
});
