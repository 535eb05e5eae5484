import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../../src/agent/types.js';
import { workflowAugment } from '../../../src/augments/workflow/augment.js';
import { PACK_FILE, packText, workflowFolder } from './harness.js';

const AUGMENT_FILE = 'augments/workflow/augment.yaml';

const ASK = { prompt: 'A few details.', fields: [{ name: 'env', question: 'Which environment?', type: 'choice', options: ['staging', 'production'] }] };

/** Validates a pack whose `details` state is the person's, with the given overrides. */
function check(details: Record<string, unknown>, options: { entry?: string; extra?: Record<string, Record<string, unknown>> } = {}): Diagnostic[] {
  const pack = packText({
    entry: options.entry ?? 'intake',
    states: {
      intake: { prompt_task: 'intake', on_event: { NeedDetails: 'details' } },
      details: { ask: ASK, on_event: { Answered: 'plan', NoAnswer: 'intake' }, ...details },
      plan: { prompt_task: 'plan', terminal: true },
      ...options.extra,
    },
  });
  return workflowAugment.validateConfig({ pack: `./${PACK_FILE}` }, AUGMENT_FILE, workflowFolder(pack));
}

const summary = (ds: Diagnostic[]) => ds.map((d) => [d.severity, d.field]);

describe('validating ask states', () => {
  it('accepts an ask state with no prompt_task and both branches, without a finding', () => {
    expect(check({})).toEqual([]);
  });

  it('refuses an ask state as the entry state', () => {
    const found = check({}, { entry: 'details' });
    expect(found).toEqual([
      expect.objectContaining({
        severity: 'error',
        field: 'workflow.entry',
        message: expect.stringMatching(/^the entry state cannot be an ask state; put a model state before it/),
        line: expect.any(Number),
      }),
    ]);
  });

  it('checks the questions with the questionnaire’s own schema, pointing at each field', () => {
    const found = check({
      ask: {
        prompt: '',
        fields: [
          { name: 'env', type: 'choice' },
          { name: 'env', type: 'integer', default: 'many' },
          { name: 'size', type: 'colour' },
          { question: 'Who?', type: 'text' },
        ],
      },
    });
    expect(found.every((d) => d.severity === 'error' && d.line !== undefined)).toBe(true);
    expect(found.map((d) => d.field)).toEqual(
      expect.arrayContaining([
        'workflow.states.details.ask.prompt',
        'workflow.states.details.ask.fields[0].options',
        'workflow.states.details.ask.fields[1].default',
        'workflow.states.details.ask.fields[2].type',
        'workflow.states.details.ask.fields[3].name',
      ]),
    );
    expect(found.find((d) => d.field === 'workflow.states.details.ask.fields[3].name')?.message).toBe('ask: name is required');
    expect(found.map((d) => d.message)).toEqual(expect.arrayContaining([expect.stringMatching(/^ask: field "env" is a choice: list its options/)]));
    expect(check({ ask: 'what env?' })).toEqual([expect.objectContaining({ severity: 'error', field: 'workflow.states.details.ask' })]);
  });

  it('an ask state needs Answered or NoAnswer: an error with neither, a warning for the one missing', () => {
    expect(check({ on_event: { Done: 'plan' } })).toEqual([
      expect.objectContaining({
        severity: 'error',
        field: 'workflow.states.details.on_event',
        message: expect.stringMatching(/declares neither Answered nor NoAnswer/),
      }),
      expect.objectContaining({
        severity: 'warning',
        field: 'workflow.states.details.on_event.Done',
        message: expect.stringMatching(/can never fire in ask state/),
      }),
    ]);
    expect(summary(check({ on_event: undefined }))).toEqual([['error', 'workflow.states.details']]);
    expect(check({ on_event: { Answered: 'plan' } })).toEqual([
      expect.objectContaining({ severity: 'warning', message: expect.stringMatching(/declares no NoAnswer: when nobody answers .* the workflow stops there/) }),
    ]);
    expect(check({ on_event: { NoAnswer: 'intake' } })).toEqual([
      expect.objectContaining({ severity: 'warning', message: expect.stringMatching(/declares no Answered/) }),
    ]);
  });

  it('flags what has no effect on an ask state, and refuses a terminal one', () => {
    expect(summary(check({ prompt_task: 'intake', control: 'agent', orchestration: 'external' }))).toEqual([
      ['warning', 'workflow.states.details.prompt_task'],
      ['warning', 'workflow.states.details.control'],
      ['warning', 'workflow.states.details.orchestration'],
    ]);
    expect(check({ terminal: true })).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ severity: 'error', field: 'workflow.states.details.terminal', message: expect.stringMatching(/cannot be terminal/) }),
      ]),
    );
  });

  it('prompt_task stays required for every other state', () => {
    expect(check({}, { extra: { plan: { terminal: true } } })).toEqual([
      expect.objectContaining({ severity: 'error', field: 'workflow.states.plan', message: expect.stringMatching(/has no prompt_task/) }),
    ]);
  });

  it('warns about a NoAnswer loop of ask states, and is silent once one of them has max_visits', () => {
    const confirm = { ask: ASK, on_event: { Answered: 'plan', NoAnswer: 'details' } };
    const found = check({ on_event: { Answered: 'plan', NoAnswer: 'confirm' } }, { extra: { confirm } });
    expect(found).toEqual([
      expect.objectContaining({
        severity: 'warning',
        field: 'workflow.states.details.on_event.NoAnswer',
        message: expect.stringMatching(/ask states details → confirm → details lead back on NoAnswer with no max_visits/),
      }),
    ]);
    expect(
      check({ on_event: { Answered: 'plan', NoAnswer: 'confirm' } }, { extra: { confirm: { ...confirm, max_visits: 2, on_max_visits: 'intake' } } }),
    ).toEqual([]);
  });

  it('an ask state holds no floor for the agent, even marked control: agent: a route through it is no unbounded cycle', () => {
    const found = check(
      { control: 'agent', on_event: { Answered: 'route', NoAnswer: 'route' } },
      {
        extra: {
          intake: { prompt_task: 'intake', on_event: { Start: 'route' } },
          route: { prompt_task: 'route', control: 'agent', on_event: { Ask: 'details', Finish: 'plan' } },
        },
      },
    );
    expect(summary(found)).toEqual([['warning', 'workflow.states.details.control']]);
  });
});
