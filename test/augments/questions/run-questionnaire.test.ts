import { describe, expect, it } from 'vitest';
import { answerSchema } from '../../../src/augments/questions/answer-schema.js';
import { questionnaireSpecSchema, toQuestionFields, type QuestionnaireSpec } from '../../../src/augments/questions/field-spec.js';
import { ANSWERED_EVENT, QUESTION_EVENT, QUESTIONNAIRE_RESULT_EVENT, answeredLine } from '../../../src/augments/questions/question-events.js';
import { runQuestionnaire } from '../../../src/augments/questions/run-questionnaire.js';
import type { KernelEvent } from '../../../src/kernel/events.js';
import { NOBODY, type PersonChannel } from '../../../src/kernel/person.js';
import { customValues, scriptedPerson, type ScriptedReply } from '../../helpers/scripted-person.js';

const deploy: QuestionnaireSpec = questionnaireSpecSchema.parse({
  prompt: 'A few settings before I deploy.',
  fields: [
    { name: 'env', question: 'Which environment?', type: 'choice', options: ['staging', 'production'] },
    { name: 'replicas', question: 'How many replicas?', type: 'integer', default: 2 },
    { name: 'regions', question: 'Which regions?', type: 'list' },
  ],
});

async function run(
  replies: ScriptedReply[],
  options: { spec?: QuestionnaireSpec; present?: boolean; schema?: Parameters<typeof runQuestionnaire>[2]['schema'] } = {},
) {
  const person = scriptedPerson(replies, { present: options.present });
  const events: KernelEvent[] = [];
  const result = await runQuestionnaire(options.spec ?? deploy, person, {
    signal: new AbortController().signal,
    emit: (event) => events.push(event),
    id: 'q_test',
    schema: options.schema,
  });
  return { result, asked: person.asked, events };
}

describe('runQuestionnaire: one question per field', () => {
  it('asks each field in order, the intro on the first only, and answers typed by field', async () => {
    const { result, asked } = await run(['2', '-', 'eu-west, us-east']);
    expect(result).toEqual({ status: 'answered', answers: { env: 'production', replicas: 2, regions: ['eu-west', 'us-east'] } });
    expect(asked.map((q) => [q.field, q.index, q.total, q.intro])).toEqual([
      ['env', 1, 3, 'A few settings before I deploy.'],
      ['replicas', 2, 3, undefined],
      ['regions', 3, 3, undefined],
    ]);
    expect(asked[1]).toMatchObject({ question: 'How many replicas?', type: 'integer', default: '2', required: true });
  });

  it('each question travels as a question event, each reply as answered, then the result', async () => {
    const { events } = await run(['staging', '3', 'eu-west']);
    expect(events.map((e) => (e.type === 'CUSTOM' ? e.name : e.type))).toEqual([
      QUESTION_EVENT,
      ANSWERED_EVENT,
      QUESTION_EVENT,
      ANSWERED_EVENT,
      QUESTION_EVENT,
      ANSWERED_EVENT,
      QUESTIONNAIRE_RESULT_EVENT,
    ]);
    expect(customValues(events, QUESTION_EVENT)[0]).toMatchObject({
      questionnaireId: 'q_test',
      field: 'env',
      type: 'choice',
      options: ['staging', 'production'],
    });
    expect(customValues(events, ANSWERED_EVENT)[1]).toEqual({ questionnaireId: 'q_test', field: 'replicas', text: '3', answer: 3 });
    expect(customValues(events, QUESTIONNAIRE_RESULT_EVENT)).toEqual([
      { questionnaireId: 'q_test', status: 'answered', answers: { env: 'staging', replicas: 3, regions: ['eu-west'] } },
    ]);
  });

  it('leaves out an optional field left empty', async () => {
    const spec = questionnaireSpecSchema.parse({
      prompt: 'p',
      fields: [
        { name: 'note', type: 'text', required: false },
        { name: 'ok', type: 'boolean' },
      ],
    });
    expect((await run(['', 'y'], { spec })).result).toEqual({ status: 'answered', answers: { ok: true } });
  });
});

describe('refusals', () => {
  it("a refused field is asked again at once with zod's message, before the next field, and the dash still takes the default", async () => {
    const { result, asked } = await run(['staging', 'many', '-', 'eu-west']);
    expect(result).toEqual({ status: 'answered', answers: { env: 'staging', replicas: 2, regions: ['eu-west'] } });
    expect(asked.map((q) => q.field)).toEqual(['env', 'replicas', 'replicas', 'regions']);
    expect(asked[2]).toMatchObject({ index: 2, total: 3, default: '2', error: '"many" is not a whole number; type digits, such as 3' });
    expect(asked[2].intro).toBeUndefined();
  });

  it('nothing typed for a required field is refused on the spot, on that field, before the next one is asked', async () => {
    const { result, asked } = await run(['2', '', '', '-', 'eu-west, us-east']);
    expect(asked.map((q) => [q.field, q.error])).toEqual([
      ['env', undefined],
      ['replicas', undefined],
      ['replicas', 'an answer is required'],
      ['replicas', 'an answer is required'],
      ['regions', undefined],
    ]);
    expect(result).toEqual({ status: 'answered', answers: { env: 'production', replicas: 2, regions: ['eu-west', 'us-east'] } });
  });

  it('nothing typed again and again counts toward the re-asks, then no answer (refused)', async () => {
    const { result, asked } = await run(['staging', '', '', '', '']);
    expect(result).toEqual({ status: 'no-answer', reason: 'refused' });
    expect(asked.map((q) => q.field)).toEqual(['env', 'replicas', 'replicas', 'replicas', 'replicas']);
  });

  it('each refused field is asked again in its turn, with its own message', async () => {
    const { result, asked } = await run(['dev', 'production', 'x', '4', 'eu-west']);
    expect(result).toMatchObject({ status: 'answered', answers: { env: 'production', replicas: 4 } });
    expect(asked.map((q) => [q.field, q.error])).toEqual([
      ['env', undefined],
      ['env', '"dev" is not one of the options: 1. staging, 2. production'],
      ['replicas', undefined],
      ['replicas', '"x" is not a whole number; type digits, such as 3'],
      ['regions', undefined],
    ]);
  });

  it('at most 3 re-asks in all, then no answer (refused)', async () => {
    const { result, asked, events } = await run(['staging', 'a', 'b', 'c', 'd', '5']);
    expect(result).toEqual({ status: 'no-answer', reason: 'refused' });
    expect(asked.map((q) => q.field)).toEqual(['env', 'replicas', 'replicas', 'replicas', 'replicas']);
    expect(customValues(events, QUESTIONNAIRE_RESULT_EVENT)).toEqual([{ questionnaireId: 'q_test', status: 'no-answer', reason: 'refused' }]);
  });

  it('the bound is across fields, not per field', async () => {
    const { result, asked } = await run(['dev', 'production', 'x', '3', '', 'eu']);
    // Three re-asks: env, replicas and regions, each fixed at once.
    expect(asked.map((q) => q.field)).toEqual(['env', 'env', 'replicas', 'replicas', 'regions', 'regions']);
    expect(result).toMatchObject({ status: 'answered' });
    const refusedAgain = await run(['dev', 'production', 'x', '3', '', '']);
    expect(refusedAgain.result).toEqual({ status: 'no-answer', reason: 'refused' });
    expect(refusedAgain.asked).toHaveLength(6);
  });

  it('an error on the whole object ends it at once, with no re-ask', async () => {
    const fields = toQuestionFields(deploy.fields);
    const schema = answerSchema(fields).refine(
      (answers) => !(answers.env === 'production' && answers.replicas === 1),
      'production needs more than one replica',
    );
    const { result, asked } = await run(['production', '1', 'eu-west'], { schema });
    expect(result).toEqual({ status: 'no-answer', reason: 'refused' });
    expect(asked).toHaveLength(3);
  });

  it('a refinement on one field (by path) re-asks that field with its message', async () => {
    const fields = toQuestionFields(deploy.fields);
    const schema = answerSchema(fields).refine((answers) => answers.replicas !== 1, { message: 'one replica is not enough', path: ['replicas'] });
    const { result, asked } = await run(['staging', '1', 'eu-west', '2'], { schema });
    expect(result).toMatchObject({ status: 'answered', answers: { replicas: 2 } });
    expect(asked[3]).toMatchObject({ field: 'replicas', error: 'one replica is not enough' });
  });
});

describe('no answer, one branch, three reasons', () => {
  it('away at once when nobody is present: the first question is told, never asked', async () => {
    const { result, asked, events } = await run(['staging'], { present: false });
    expect(result).toEqual({ status: 'no-answer', reason: 'away' });
    expect(asked).toHaveLength(0);
    expect(customValues(events, QUESTION_EVENT)).toHaveLength(1);
    expect(customValues(events, ANSWERED_EVENT)).toEqual([{ questionnaireId: 'q_test', field: 'env', reason: 'away' }]);
  });

  it('NOBODY (print, serve) answers away at once', async () => {
    const result = await runQuestionnaire(deploy, NOBODY, { signal: new AbortController().signal, emit: () => undefined });
    expect(result).toEqual({ status: 'no-answer', reason: 'away' });
  });

  it('a person who goes away mid-way', async () => {
    const { result, asked } = await run(['staging', { kind: 'away' }]);
    expect(result).toEqual({ status: 'no-answer', reason: 'away' });
    expect(asked).toHaveLength(2);
  });

  it('declined (Esc), also when asked again', async () => {
    expect((await run([{ kind: 'declined' }])).result).toEqual({ status: 'no-answer', reason: 'declined' });
    expect((await run(['staging', 'x', 'eu', { kind: 'declined' }])).result).toEqual({ status: 'no-answer', reason: 'declined' });
  });

  it('a canceled turn stops waiting, even on a channel that ignores the signal', async () => {
    const never: PersonChannel = { present: () => true, ask: () => new Promise(() => undefined) };
    const controller = new AbortController();
    const pending = runQuestionnaire(deploy, never, { signal: controller.signal, emit: () => undefined });
    controller.abort();
    expect(await pending).toEqual({ status: 'no-answer', reason: 'declined' });
  });

  it('a channel that throws reads as nobody there', async () => {
    const broken: PersonChannel = { present: () => true, ask: () => Promise.reject(new Error('terminal gone')) };
    expect(await runQuestionnaire(deploy, broken, { signal: new AbortController().signal, emit: () => undefined })).toEqual({
      status: 'no-answer',
      reason: 'away',
    });
  });
});

describe('answeredLine, for hosts that print the exchange', () => {
  it('shows the answer as typed, or why there was none', async () => {
    const { asked, events } = await run(['2', { kind: 'declined' }]);
    const [first, second] = customValues(events, ANSWERED_EVENT) as Parameters<typeof answeredLine>[1][];
    expect(answeredLine(asked[0], first)).toBe('? Which environment? → production');
    expect(answeredLine(asked[1], second)).toBe('? How many replicas? (declined)');
    expect(answeredLine(asked[0], { questionnaireId: 'q', field: 'env', reason: 'away' })).toBe('? Which environment? (nobody answered: away)');
  });
});
