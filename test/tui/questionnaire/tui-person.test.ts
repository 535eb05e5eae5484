import { describe, expect, it, vi } from 'vitest';
import { questionnaireSpecSchema } from '../../../src/augments/questions/field-spec.js';
import { runQuestionnaire } from '../../../src/augments/questions/run-questionnaire.js';
import type { PresentedQuestion } from '../../../src/kernel/person.js';
import { awayIndicator, presenceCommands } from '../../../src/hosts/tui/questionnaire/presence-commands.js';
import { createTuiPerson, type TuiPerson } from '../../../src/hosts/tui/questionnaire/tui-person.js';

const spec = questionnaireSpecSchema.parse({
  prompt: 'Settings',
  fields: [
    { name: 'env', type: 'choice', options: ['staging', 'production'] },
    { name: 'replicas', type: 'integer' },
    { name: 'regions', type: 'list' },
  ],
});

const question = (field: string): PresentedQuestion => ({ questionnaireId: 'q', field, question: field, type: 'text', required: true, index: 1, total: 1 });

/** Resolves once the screen shows a question for `field`. */
function shown(tui: TuiPerson, field: string): Promise<void> {
  return vi.waitFor(() => {
    if (tui.snapshot().question?.field !== field) throw new Error(`not showing ${field}`);
  });
}

function command(tui: TuiPerson, name: string) {
  const found = presenceCommands(tui).find((c) => c.name === name);
  if (!found) throw new Error(`no /${name}`);
  return found.run('');
}

describe('createTuiPerson', () => {
  it('holds the question until the screen answers it, and tells subscribers', async () => {
    const tui = createTuiPerson();
    const seen: (string | undefined)[] = [];
    tui.subscribe(() => seen.push(tui.snapshot().question?.field));
    expect(tui.person.present()).toBe(true);
    const reply = tui.person.ask(question('env'), new AbortController().signal);
    expect(tui.snapshot().question?.field).toBe('env');
    tui.answer('staging');
    expect(await reply).toEqual({ kind: 'answer', text: 'staging' });
    expect(tui.snapshot().question).toBeUndefined();
    expect(seen).toEqual(['env', undefined]);
  });

  it('the snapshot is the same object until something changes', () => {
    const tui = createTuiPerson();
    expect(tui.snapshot()).toBe(tui.snapshot());
  });

  it('Esc declines; a canceled turn takes its question off the screen as declined', async () => {
    const tui = createTuiPerson();
    const first = tui.person.ask(question('a'), new AbortController().signal);
    tui.decline();
    expect(await first).toEqual({ kind: 'declined' });
    const controller = new AbortController();
    const second = tui.person.ask(question('b'), controller.signal);
    controller.abort();
    expect(await second).toEqual({ kind: 'declined' });
    expect(tui.snapshot().question).toBeUndefined();
  });

  it('questions asked at once wait in order, the oldest on screen', async () => {
    const tui = createTuiPerson();
    const signal = new AbortController().signal;
    const a = tui.person.ask(question('a'), signal);
    const b = tui.person.ask(question('b'), signal);
    expect(tui.snapshot().question?.field).toBe('a');
    tui.answer('1');
    expect(tui.snapshot().question?.field).toBe('b');
    tui.answer('2');
    expect([await a, await b]).toEqual([
      { kind: 'answer', text: '1' },
      { kind: 'answer', text: '2' },
    ]);
  });
});

describe('/away and /back', () => {
  it('/away during a questionnaire answers the question on screen as nobody, and the rest at once', async () => {
    const tui = createTuiPerson();
    const pending = runQuestionnaire(spec, tui.person, { signal: new AbortController().signal, emit: () => undefined });
    await shown(tui, 'env');
    tui.answer('2');
    await shown(tui, 'replicas');
    const output = await command(tui, 'away');
    expect(output.lines).toEqual(['away: questions are answered with no answer (away) until /back', 'the open question "replicas" was answered as away']);
    expect(await pending).toEqual({ status: 'no-answer', reason: 'away' });
    expect(tui.snapshot()).toEqual({ question: undefined, away: true });
    expect(awayIndicator(tui)).toBe('away');
    // While away, a new questionnaire ends before anything is shown.
    const later = runQuestionnaire(spec, tui.person, { signal: new AbortController().signal, emit: () => undefined });
    expect(tui.snapshot().question).toBeUndefined();
    expect(await later).toEqual({ status: 'no-answer', reason: 'away' });
  });

  it('/back ends it: questions wait for an answer again', async () => {
    const tui = createTuiPerson({ away: true });
    expect(tui.person.present()).toBe(false);
    expect((await command(tui, 'away')).lines).toEqual(['already away; /back ends it']);
    expect((await command(tui, 'back')).lines).toEqual(['back: questions wait for your answer again']);
    expect((await command(tui, 'back')).lines).toEqual(['you were not away']);
    expect(awayIndicator(tui)).toBeUndefined();
    const pending = runQuestionnaire(spec, tui.person, { signal: new AbortController().signal, emit: () => undefined });
    await shown(tui, 'env');
    tui.answer('staging');
    await shown(tui, 'replicas');
    tui.answer('3');
    await shown(tui, 'regions');
    tui.answer('eu, us');
    expect(await pending).toEqual({ status: 'answered', answers: { env: 'staging', replicas: 3, regions: ['eu', 'us'] } });
  });

  it('both are slash commands that run during a turn', () => {
    const commands = presenceCommands(createTuiPerson());
    expect(commands.map((c) => [c.name, c.duringTurn])).toEqual([
      ['away', true],
      ['back', true],
    ]);
    expect(commands.every((c) => c.summary.length > 0)).toBe(true);
  });
});
