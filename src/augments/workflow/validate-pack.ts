import { didYouMean } from '../../agent/suggest.js';
import type { Diagnostic } from '../../agent/types.js';
import { formatFieldPath, locateField, type FieldPath, type YamlSource } from '../../agent/yaml-source.js';
import { NO_ANSWER } from './ask-events.js';
import { isTerminalState, noAnswerLoops, unboundedAgentCycles } from './pack-graph.js';
import { ARTIFACT_MODES, CONTROLS, ORCHESTRATIONS, WORKFLOW_VERSIONS, type PackFile, type PackState } from './pack-schema.js';
import { checkAskState } from './validate-ask.js';
import type { Report } from './pack-report.js';
import { promptSetTask } from './prompt-set.js';
import { packToolProblems, type PackFiles } from './pack-tools.js';
import { promptGuardrails } from './guardrails.js';

type Workflow = NonNullable<PackFile['workflow']>;

const PASCAL_CASE = /^[A-Z][A-Za-z0-9]*$/;

function reporter(source: YamlSource, out: Diagnostic[]): Report {
  return (severity, path, message) => {
    const position = locateField(source, path);
    out.push({ severity, file: source.file, line: position?.line, column: position?.column, field: formatFieldPath(path), message });
  };
}

function quoteList(values: readonly (string | number)[]): string {
  return values.length === 0 ? '(none)' : values.join(', ');
}

function checkState(pack: PackFile, workflow: Workflow, name: string, state: PackState, report: Report): void {
  const at = (...rest: string[]): FieldPath => ['workflow', 'states', name, ...rest];
  const stateNames = Object.keys(workflow.states);
  const taskNames = Object.keys(pack.prompts);
  const orchestration = state.orchestration ?? 'internal';
  const terminal = isTerminalState(state);
  // A person state runs no model round: no prompt_task is needed, and its own checks say how it moves.
  const asks = state.ask !== undefined;
  if (asks) checkAskState(name, state, report);

  if (!(ORCHESTRATIONS as readonly string[]).includes(orchestration)) {
    report('error', at('orchestration'), `"${orchestration}" is not one of ${ORCHESTRATIONS.join(', ')}${didYouMean(orchestration, ORCHESTRATIONS)}`);
  } else if (orchestration === 'composition') {
    report('warning', at('orchestration'), 'composition states are not run by auggy: the state waits for an external event (--event, /workflow event)');
  }

  if (state.control !== undefined && !(CONTROLS as readonly string[]).includes(state.control)) {
    report('error', at('control'), `"${state.control}" is not one of user, agent${didYouMean(state.control, CONTROLS)}; leave it out for user`);
  }

  if (state.prompt_task === undefined) {
    if (orchestration !== 'composition' && !asks)
      report('error', at(), `state "${name}" has no prompt_task; name one of the pack's prompts: ${quoteList(taskNames)}`);
  } else if (!taskNames.includes(state.prompt_task)) {
    report(
      'error',
      at('prompt_task'),
      `"${state.prompt_task}" is not a prompt of this pack (${quoteList(taskNames)})${didYouMean(state.prompt_task, taskNames)}`,
    );
  }

  for (const [slot, def] of Object.entries(state.artifacts ?? {})) {
    if (def.mode !== undefined && !(ARTIFACT_MODES as readonly string[]).includes(def.mode)) {
      report(
        'error',
        at('artifacts', slot, 'mode'),
        `artifact "${slot}" mode "${def.mode}" is not one of ${ARTIFACT_MODES.join(', ')}${didYouMean(def.mode, ARTIFACT_MODES)}; leave it out for replace`,
      );
    }
  }

  const events = Object.entries(state.on_event ?? {});
  for (const [event, target] of events) {
    if (!stateNames.includes(target)) {
      report(
        'error',
        at('on_event', event),
        `event ${event} leads to "${target}", which is not a state (${quoteList(stateNames)})${didYouMean(target, stateNames)}`,
      );
    }
    if (!PASCAL_CASE.test(event)) {
      report('warning', at('on_event', event), `event name "${event}" is not PascalCase (like AccountVerified); events name things that happened`);
    }
  }

  if (state.on_max_visits !== undefined && !stateNames.includes(state.on_max_visits)) {
    report('error', at('on_max_visits'), `"${state.on_max_visits}" is not a state (${quoteList(stateNames)})${didYouMean(state.on_max_visits, stateNames)}`);
  }

  if (terminal && state.control === 'agent') {
    report('warning', at('control'), `state "${name}" is terminal, so control: agent has no effect: the workflow ends on entry; remove one of them`);
  }
  if (state.terminal === true && events.length > 0) {
    report('warning', at('on_event'), `state "${name}" is terminal but declares on_event; those events can never fire: remove them or terminal: true`);
  }
  if (events.length === 0 && !asks && state.terminal !== true && (state.terminal === false || workflow.version >= 2)) {
    const said = state.terminal === false ? 'says terminal: false but' : 'is not marked terminal and';
    report(
      'warning',
      at(),
      `state "${name}" ${said} has no on_event, so it is terminal (as in PromptKit): the workflow ends there; add on_event, or terminal: true to say so`,
    );
  }

  if (state.on_max_visits !== undefined) {
    const target = workflow.states[state.on_max_visits];
    if (target?.max_visits !== undefined) {
      report(
        'warning',
        at('on_max_visits'),
        `on_max_visits leads to "${state.on_max_visits}", which has its own max_visits: a redirect is not chained (as in PromptKit), so that state is entered even when full and its on_max_visits is not followed`,
      );
    }
  }
}

/**
 * Prompts' validators run as PromptKit's guardrails; each that auggy cannot run as written is
 * named. PromptKit reads validators per prompt only, so a pack-level list is said to do nothing.
 */
function checkPrompts(pack: PackFile, report: Report, files?: PackFiles): void {
  for (const [task, prompt] of Object.entries(pack.prompts)) {
    for (const { index, message } of promptGuardrails(prompt.validators).problems) {
      report('warning', ['prompts', task, 'validators', index], message);
    }
  }
  for (const { key, severity, message } of packToolProblems(pack, files)) report(severity, ['tools', key], message);
  const packValidators = (pack as Record<string, unknown>).validators;
  if (Array.isArray(packValidators) && packValidators.length > 0) {
    report(
      'warning',
      ['validators'],
      "the pack's top-level validators are not run: PromptKit runs the validators of each prompt, so move them under the prompts they guard",
    );
  }
}

/**
 * The checks a schema cannot express: references between prompts and states, the allowed values
 * of control/orchestration/version, and the authoring mistakes RFC 0014 asks validators to flag.
 */
export function validatePack(pack: PackFile, source: YamlSource, chosenPrompt?: string, files?: PackFiles): Diagnostic[] {
  const out: Diagnostic[] = [];
  const report = reporter(source, out);
  const { workflow } = pack;
  checkPrompts(pack, report, files);
  if (!workflow) {
    const chosen = promptSetTask(pack, chosenPrompt);
    if ('error' in chosen) report('error', ['prompts'], chosen.error);
    else if (chosen.note) report('warning', ['prompts'], chosen.note);
    return out;
  }
  const stateNames = Object.keys(workflow.states);

  if (!(WORKFLOW_VERSIONS as readonly number[]).includes(workflow.version)) {
    report('error', ['workflow', 'version'], `workflow version ${workflow.version} is not supported; use 1 or 2`);
  }
  if (!stateNames.includes(workflow.entry)) {
    report('error', ['workflow', 'entry'], `entry "${workflow.entry}" is not a state (${quoteList(stateNames)})${didYouMean(workflow.entry, stateNames)}`);
  } else if (workflow.states[workflow.entry].ask !== undefined) {
    // Hooks see the person only after a tool batch, and a turn opens with a model round.
    report(
      'error',
      ['workflow', 'entry'],
      `the entry state cannot be an ask state; put a model state before it (entry "${workflow.entry}" asks the person, but a conversation starts with their message and a model round)`,
    );
  }
  for (const name of stateNames) checkState(pack, workflow, name, workflow.states[name], report);

  for (const cycle of unboundedAgentCycles(workflow.states)) {
    const loop = cycle.length === 1 ? `${cycle[0]} → ${cycle[0]}` : cycle.join(', ');
    report(
      'warning',
      ['workflow', 'states', cycle[0], 'control'],
      `states ${loop} keep the floor (control: agent) in a cycle that reaches no user or terminal state and has no max_visits; ` +
        'only engine.budget would stop it: give one of them max_visits (with on_max_visits) or an exit',
    );
  }
  for (const loop of noAnswerLoops(workflow.states)) {
    const path = [...loop, loop[0]].join(' → ');
    report(
      'warning',
      ['workflow', 'states', loop[0], 'on_event', NO_ANSWER],
      `ask states ${path} lead back on NoAnswer with no max_visits: where nobody can answer (--print, serve, /away) the workflow stops there instead of asking nobody forever; ` +
        'give one of them max_visits with on_max_visits, or send NoAnswer to a model state',
    );
  }
  return out;
}
