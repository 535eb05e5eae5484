import { describe, expect, it } from 'vitest';
import type { KernelEvent } from '../../../src/kernel/events.js';
import type { PersonChannel, QuestionnaireAsk, QuestionnaireReply } from '../../../src/kernel/person.js';
import { runDeferrableQuestionnaire, type QuestionnaireSpec } from '../../../src/augments/questions/index.js';

const spec: QuestionnaireSpec = {
  prompt: 'Deploy details.',
  fields: [
    { name: 'service', question: 'Which service?', type: 'text' },
    { name: 'replicas', question: 'How many replicas?', type: 'integer' },
    { name: 'env', type: 'choice', options: ['staging', 'production'], default: 'staging' },
  ],
};

/** A person who answers whole questionnaires from a list of replies, then holds the rest open. */
function answeringPerson(replies: QuestionnaireReply[]): PersonChannel & { asks: QuestionnaireAsk[] } {
  const asks: QuestionnaireAsk[] = [];
  return {
    asks,
    present: () => true,
    ask: async () => ({ kind: 'away' }),
    askQuestionnaire: async (ask) => {
      asks.push(ask);
      return replies.shift() ?? { kind: 'pending' };
    },
  };
}

function run(person: PersonChannel, events: KernelEvent[] = []) {
  return runDeferrableQuestionnaire(spec, person, {
    signal: new AbortController().signal,
    emit: (event) => void events.push(event),
    id: 'q_c1',
    toolCallId: 'c1',
  });
}

describe("a questionnaire answered at once (serve's interrupts)", () => {
  it('is pending when nobody answers in this run, and the ask carries every field as JSON Schema', async () => {
    const person = answeringPerson([]);
    const events: KernelEvent[] = [];
    expect(await run(person, events)).toEqual({ status: 'pending' });
    // The questions are said in the run that asks them.
    expect(events.map((event) => (event.type === 'CUSTOM' ? event.name : event.type))).toEqual(['question', 'question', 'question']);
    expect(person.asks).toHaveLength(1);
    expect(person.asks[0]).toMatchObject({ questionnaireId: 'q_c1', toolCallId: 'c1', prompt: 'Deploy details.', accepted: {}, reasks: 0 });
    expect(person.asks[0].questions.map((q) => q.field)).toEqual(['service', 'replicas', 'env']);
    expect(person.asks[0].responseSchema).toMatchObject({
      required: ['service', 'replicas', 'env'],
      properties: { env: { type: 'string', enum: ['staging', 'production'], default: 'staging', title: 'env' } },
    });
  });

  it("reads the answers with the terminal's rules and emits the same events", async () => {
    const events: KernelEvent[] = [];
    const result = await run(answeringPerson([{ kind: 'answers', texts: { service: 'api', replicas: '3', env: '2' }, reasks: 0 }]), events);
    expect(result).toEqual({ status: 'answered', answers: { service: 'api', replicas: 3, env: 'production' } });
    const names = events.map((event) => (event.type === 'CUSTOM' ? event.name : event.type));
    expect(names).toEqual(['answered', 'answered', 'answered', 'questionnaire.result']);
  });

  it("asks again for the refused fields only, in the field's own words, keeping the accepted answers", async () => {
    const person = answeringPerson([{ kind: 'answers', texts: { service: 'api', replicas: 'three', env: '-' }, reasks: 0 }]);
    expect(await run(person)).toEqual({ status: 'pending' });
    const again = person.asks[1];
    expect(again.questions.map((q) => q.field)).toEqual(['replicas']);
    expect(again.questions[0].error).toBe('"three" is not a whole number; type digits, such as 3');
    expect(again.accepted).toEqual({ service: 'api', env: '-' });
    expect(again.reasks).toBe(1);
    expect(Object.keys((again.responseSchema as { properties: object }).properties)).toEqual(['replicas']);
  });

  it('counts re-asks across runs: past the bound the questionnaire ends refused', async () => {
    const events: KernelEvent[] = [];
    const result = await run(answeringPerson([{ kind: 'answers', texts: { service: 'api', replicas: 'many', env: '' }, reasks: 3 }]), events);
    expect(result).toEqual({ status: 'no-answer', reason: 'refused' });
    expect(events.at(-1)).toMatchObject({ type: 'CUSTOM', name: 'questionnaire.result', value: { status: 'no-answer', reason: 'refused' } });
  });

  it('a declined questionnaire is no answer (declined)', async () => {
    expect(await run(answeringPerson([{ kind: 'declined' }]))).toEqual({ status: 'no-answer', reason: 'declined' });
  });
});
