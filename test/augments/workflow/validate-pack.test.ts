import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../../src/agent/types.js';
import { workflowAugment } from '../../../src/augments/workflow/augment.js';
import { PACK_FILE, RFC_SUPPORT, packText, rfcCodegen, workflowFolder, type PackSpec } from './harness.js';

const AUGMENT_FILE = 'augments/workflow/augment.yaml';

/** Validates `pack` written as `file` in a fresh agent folder, with config.pack = `packPath`. */
function validate(pack: string, options: { file?: string; packPath?: string } = {}): Diagnostic[] {
  const file = options.file ?? PACK_FILE;
  const dir = workflowFolder(pack, `  pack: ./${file}\n`, { [file]: pack });
  return workflowAugment.validateConfig({ pack: options.packPath ?? `./${file}` }, AUGMENT_FILE, dir);
}

const check = (spec: PackSpec) => validate(packText(spec));
const errors = (ds: Diagnostic[]) => ds.filter((d) => d.severity === 'error');
const warnings = (ds: Diagnostic[]) => ds.filter((d) => d.severity === 'warning');

/** A small valid pack, written by hand so line numbers are known. */
const HAND_WRITTEN = `id: desk
name: Desk
version: 1.0.0
prompts:
  ask:
    id: ask
    name: Ask
    version: 1.0.0
    system_template: Ask.
workflow:
  version: 2
  entry: start
  states:
    start:
      prompt_task: ask
      control: agnet
      on_event:
        Done: finish
    finish:
      prompt_task: ask
      terminal: true
`;

describe('workflow pack validation', () => {
  it('accepts the RFC 0014 examples without a finding', () => {
    expect(check(RFC_SUPPORT)).toEqual([]);
    expect(check({ ...rfcCodegen(10), budget: { max_total_visits: 50, max_tool_calls: 200, max_wall_time_sec: 600 } })).toEqual([]);
  });

  it('accepts a JSON pack written for another runtime, with published properties auggy ignores', () => {
    const pack = {
      $schema: 'https://promptpack.org/schema/latest/promptpack.schema.json',
      id: 'helpdesk',
      name: 'Helpdesk',
      version: '2.0.0',
      template_engine: { version: 'v1', syntax: '{{variable}}', features: ['basic_substitution'] },
      fragments: { sign_off: 'Thanks, {{company}}' },
      tools: { lookup_order: { name: 'lookup_order', description: 'Find an order', parameters: { type: 'object' } } },
      metadata: { domain: 'support', tags: ['demo'] },
      evals: [{ id: 'tone', type: 'llm_judge', trigger: 'every_turn' }],
      prompts: {
        sort: { id: 'sort', name: 'Sort', version: '1.0.0', system_template: 'Sort it.', parameters: { temperature: 0.3 }, tools: ['lookup_order'] },
        wrap: { id: 'wrap', name: 'Wrap', version: '1.0.0', system_template: 'Wrap up.', model_overrides: { 'gpt-4': { system_template_suffix: '!' } } },
      },
      workflow: {
        version: 1,
        entry: 'sorting',
        states: {
          sorting: { prompt_task: 'sort', persistence: 'transient', on_event: { Sorted: 'closing' } },
          // The v1.3 form of a terminal state: an empty on_event.
          closing: { prompt_task: 'wrap', on_event: {}, orchestration: 'internal', extensions: { 'x-owner': 'ops' } },
        },
        engine: { budget: { max_total_visits: 10 }, timeout_sec: 30 },
      },
    };
    expect(validate(JSON.stringify(pack, null, 2), { file: 'helpdesk.json' })).toEqual([]);
  });

  it('points an error at the pack file, line and column, with the field', () => {
    const [finding] = validate(HAND_WRITTEN);
    expect(finding).toEqual({
      severity: 'error',
      file: PACK_FILE,
      line: 16,
      column: 7,
      field: 'workflow.states.start.control',
      message: '"agnet" is not one of user, agent; did you mean agent?; leave it out for user',
    });
  });

  describe('errors', () => {
    it.each<[string, PackSpec, string, RegExp]>([
      [
        'control not user or agent',
        { entry: 'a', states: { a: { prompt_task: 'a', control: 'system', terminal: true } } },
        'workflow.states.a.control',
        /"system" is not one of user, agent/,
      ],
      [
        'unknown entry',
        { entry: 'strat', states: { start: { prompt_task: 'a', terminal: true } } },
        'workflow.entry',
        /entry "strat" is not a state \(start\); did you mean start\?/,
      ],
      [
        'unknown prompt_task',
        { entry: 'a', states: { a: { prompt_task: 'nope', terminal: true } }, prompts: { real: { system_template: 'x' } }, omitPrompts: ['nope'] },
        'workflow.states.a.prompt_task',
        /"nope" is not a prompt of this pack/,
      ],
      [
        'unknown on_event target',
        { entry: 'a', states: { a: { prompt_task: 'a', on_event: { Go: 'bee' } }, b: { prompt_task: 'a', terminal: true } } },
        'workflow.states.a.on_event.Go',
        /event Go leads to "bee", which is not a state/,
      ],
      [
        'unknown on_max_visits target',
        {
          entry: 'a',
          states: { a: { prompt_task: 'a', max_visits: 2, on_max_visits: 'elsewhere', on_event: { Go: 'b' } }, b: { prompt_task: 'a', terminal: true } },
        },
        'workflow.states.a.on_max_visits',
        /"elsewhere" is not a state/,
      ],
      [
        'bad orchestration',
        { entry: 'a', states: { a: { prompt_task: 'a', orchestration: 'externel', terminal: true } } },
        'workflow.states.a.orchestration',
        /"externel" is not one of internal, external, hybrid, composition; did you mean external\?/,
      ],
      [
        'version not 1 or 2',
        { version: 3, entry: 'a', states: { a: { prompt_task: 'a', terminal: true } } },
        'workflow.version',
        /workflow version 3 is not supported; use 1 or 2/,
      ],
      ['a state without prompt_task', { entry: 'a', states: { a: { terminal: true } } }, 'workflow.states.a', /has no prompt_task/],
    ])('%s', (_label, spec, field, message) => {
      const found = errors(check(spec));
      expect(found).toHaveLength(1);
      expect(found[0]).toMatchObject({ file: PACK_FILE, field, message: expect.stringMatching(message) });
      expect(found[0].line).toEqual(expect.any(Number));
    });

    it('a pack that is missing, not YAML, or not shaped like a PromptPack', () => {
      expect(workflowAugment.validateConfig({}, AUGMENT_FILE, workflowFolder('x: 1'))).toEqual([
        expect.objectContaining({ file: AUGMENT_FILE, field: 'config.pack', severity: 'error' }),
      ]);
      expect(validate('id: x', { packPath: './nowhere.yaml' })).toEqual([
        expect.objectContaining({ file: 'nowhere.yaml', message: expect.stringMatching(/does not exist/) }),
      ]);
      expect(validate('prompts: [\n')).toEqual([expect.objectContaining({ file: PACK_FILE, line: expect.any(Number), severity: 'error' })]);
      const shape = validate('id: x\nprompts:\n  a:\n    name: A\n');
      // workflow is optional, as in PromptKit: a pack without one is a prompt set.
      expect(shape).toEqual([expect.objectContaining({ field: 'prompts.a.system_template', line: 3 })]);
    });

    it('a pack without a workflow is a prompt set: config.prompt must name one of its prompts', () => {
      const pack = 'id: x\nprompts:\n  a: { system_template: A }\n  b: { system_template: B }\n';
      expect(validate(pack)).toEqual([
        expect.objectContaining({ severity: 'warning', message: expect.stringMatching(/runs "a" \(set config\.prompt to choose\)/) }),
      ]);
      expect(workflowAugment.validateConfig({ pack: `./${PACK_FILE}`, prompt: 'c' }, AUGMENT_FILE, workflowFolder(pack))).toEqual([
        expect.objectContaining({ severity: 'error', message: 'config.prompt "c" is not a prompt of this pack (a, b)' }),
      ]);
    });
  });

  describe('warnings', () => {
    it('control: agent on a terminal state', () => {
      const found = check({ entry: 'a', states: { a: { prompt_task: 'a', control: 'agent', terminal: true } } });
      expect(found).toEqual([
        expect.objectContaining({
          severity: 'warning',
          field: 'workflow.states.a.control',
          message: expect.stringMatching(/terminal, so control: agent has no effect/),
        }),
      ]);
    });

    it('a cycle of control: agent states with no way back to the user and no max_visits', () => {
      const found = check({
        entry: 'start',
        states: {
          start: { prompt_task: 'a', on_event: { Go: 'route' } },
          route: { prompt_task: 'a', control: 'agent', on_event: { Work: 'work' } },
          work: { prompt_task: 'a', control: 'agent', on_event: { Again: 'route' } },
        },
      });
      expect(found).toEqual([
        expect.objectContaining({
          severity: 'warning',
          field: 'workflow.states.route.control',
          message: expect.stringMatching(/states route, work keep the floor .* no user or terminal state and has no max_visits/),
        }),
      ]);
    });

    it('a control: agent state that loops onto itself', () => {
      const found = check({ entry: 'spin', states: { spin: { prompt_task: 'a', control: 'agent', on_event: { Again: 'spin' } } } });
      expect(warnings(found).map((d) => d.message)).toEqual([expect.stringMatching(/states spin → spin keep the floor/)]);
    });

    it.each([
      ['a member has max_visits', { work: { max_visits: 3 } }],
      ['a member can reach a user state', { work: { on_event: { Again: 'route', Ask: 'start' } } }],
      ['a member can reach a terminal state', { work: { on_event: { Again: 'route', Finish: 'end' } } }],
    ])('is silent about the cycle when %s', (_label, change) => {
      const found = check({
        entry: 'start',
        states: {
          start: { prompt_task: 'a', on_event: { Go: 'route' } },
          route: { prompt_task: 'a', control: 'agent', on_event: { Work: 'work' } },
          work: { prompt_task: 'a', control: 'agent', on_event: { Again: 'route' }, ...change.work },
          end: { prompt_task: 'a', terminal: true },
        },
      });
      expect(found).toEqual([]);
    });

    it('event names that are not PascalCase', () => {
      const found = check({
        entry: 'a',
        states: { a: { prompt_task: 'a', on_event: { resolved: 'b', ServeBalance: 'b', escalate_now: 'b' } }, b: { prompt_task: 'a', terminal: true } },
      });
      expect(found.map((d) => [d.severity, d.field])).toEqual([
        ['warning', 'workflow.states.a.on_event.resolved'],
        ['warning', 'workflow.states.a.on_event.escalate_now'],
      ]);
      expect(found[0].message).toMatch(/"resolved" is not PascalCase/);
    });

    it('a terminal state with on_event', () => {
      const found = check({ entry: 'a', states: { a: { prompt_task: 'a', terminal: true, on_event: { Reopen: 'a' } } } });
      expect(found).toEqual([
        expect.objectContaining({ severity: 'warning', field: 'workflow.states.a.on_event', message: expect.stringMatching(/terminal but declares on_event/) }),
      ]);
    });

    it('a version 2 state with no on_event, which is terminal as in PromptKit, unless it says so itself', () => {
      const found = check({ entry: 'a', states: { a: { prompt_task: 'a', on_event: { Go: 'stuck' } }, stuck: { prompt_task: 'a' } } });
      expect(found).toEqual([
        expect.objectContaining({
          severity: 'warning',
          field: 'workflow.states.stuck',
          message: expect.stringMatching(/not marked terminal and has no on_event, so it is terminal/),
        }),
      ]);
      expect(check({ version: 1, entry: 'a', states: { a: { prompt_task: 'a', on_event: { Go: 'last' } }, last: { prompt_task: 'a' } } })).toEqual([]);
      const denied = check({
        version: 1,
        entry: 'a',
        states: { a: { prompt_task: 'a', on_event: { Go: 'last' } }, last: { prompt_task: 'a', terminal: false } },
      });
      expect(denied).toEqual([
        expect.objectContaining({ field: 'workflow.states.last', message: expect.stringMatching(/says terminal: false but has no on_event/) }),
      ]);
    });

    it('fields auggy does not execute are warned (a validator that needs a model, an on_max_visits redirect chain), RFC 0009 artifacts are not: they are kept', () => {
      const found = check({
        entry: 'a',
        states: {
          a: { prompt_task: 'a', max_visits: 2, on_max_visits: 'b', on_event: { Go: 'a', Next: 'b' }, artifacts: { summary: { type: 'text/plain' } } },
          b: { prompt_task: 'a', max_visits: 1, on_max_visits: 'c', on_event: { Go: 'c' } },
          c: { prompt_task: 'a', terminal: true },
        },
        prompts: {
          a: {
            system_template: 'A.',
            validators: [
              { type: 'banned_words', params: { words: ['x'] } },
              { type: 'toxicity', params: { direction: 'output' } },
            ],
          },
        },
      });
      expect(found).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ severity: 'warning', field: 'workflow.states.a.on_max_visits', message: expect.stringMatching(/redirect is not chained/) }),
          expect.objectContaining({
            severity: 'warning',
            field: 'prompts.a.validators[1]',
            message: expect.stringMatching(/validator toxicity is not run: it needs a judge model/),
          }),
        ]),
      );
      expect(found.every((d) => d.severity === 'warning' && d.line !== undefined)).toBe(true);
      expect(found.some((d) => d.field?.includes('artifacts'))).toBe(false);
      // banned_words runs as PromptKit runs it: nothing to say about it.
      expect(found.some((d) => d.field === 'prompts.a.validators[0]')).toBe(false);
    });

    it('a composition state, which auggy does not run', () => {
      const found = check({
        entry: 'a',
        states: { a: { orchestration: 'composition', composition: 'analyze', on_event: { Done: 'b' } }, b: { prompt_task: 'b', terminal: true } },
      });
      expect(found).toEqual([
        expect.objectContaining({ severity: 'warning', field: 'workflow.states.a.orchestration', message: expect.stringMatching(/not run by auggy/) }),
      ]);
    });
  });
});
