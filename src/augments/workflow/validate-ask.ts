import { valueAt, type FieldPath } from '../../agent/yaml-source.js';
import { questionnaireSpecSchema } from '../questions/index.js';
import { ANSWERED, ASK_EVENTS, NO_ANSWER } from './ask-events.js';
import { ORCHESTRATIONS, type PackState } from './pack-schema.js';
import type { Report } from './pack-report.js';

/**
 * The checks of a person state (`ask: {prompt, fields}`): its questions must be askable, and
 * Answered / NoAnswer are the only ways out, since no model runs there to fire anything else.
 */
export function checkAskState(name: string, state: PackState, report: Report): void {
  const at = (...rest: (string | number)[]): FieldPath => ['workflow', 'states', name, ...rest];

  const parsed = questionnaireSpecSchema.safeParse(state.ask);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const path = issue.path.map((segment) => (typeof segment === 'number' ? segment : String(segment)));
      // Zod says "expected string, received undefined" of a key left out; the author reads "required".
      const missing = issue.code === 'invalid_type' && path.length > 0 && valueAt(state.ask, path) === undefined;
      report('error', at('ask', ...path), `ask: ${missing ? `${String(path.at(-1))} is required` : issue.message}`);
    }
  }

  if (state.terminal === true) {
    report('error', at('terminal'), `ask state "${name}" cannot be terminal: the person's answer moves it on (Answered / NoAnswer)`);
  }

  const events = Object.keys(state.on_event ?? {});
  const hasAnswered = events.includes(ANSWERED);
  const hasNoAnswer = events.includes(NO_ANSWER);
  if (!hasAnswered && !hasNoAnswer) {
    report(
      'error',
      state.on_event === undefined ? at() : at('on_event'),
      `ask state "${name}" declares neither Answered nor NoAnswer in on_event: the person's answer is what moves it, so say where each leads (Answered: <state>, NoAnswer: <state>)`,
    );
  } else if (!hasNoAnswer) {
    report(
      'warning',
      at('on_event'),
      `ask state "${name}" declares no NoAnswer: when nobody answers (--print, serve, /away), the answers are refused or the person declines, the workflow stops there; add NoAnswer: <state>`,
    );
  } else if (!hasAnswered) {
    report('warning', at('on_event'), `ask state "${name}" declares no Answered: when the person answers, the workflow stops there; add Answered: <state>`);
  }
  for (const event of events.filter((candidate) => !(ASK_EVENTS as readonly string[]).includes(candidate))) {
    report('warning', at('on_event', event), `event ${event} can never fire in ask state "${name}": its questionnaire fires only Answered or NoAnswer`);
  }

  if (state.prompt_task !== undefined) {
    report('warning', at('prompt_task'), `ask state "${name}" runs no model round, so its prompt_task is never used; remove it`);
  }
  if (state.control !== undefined) {
    report(
      'warning',
      at('control'),
      `control has no effect on ask state "${name}": the person answers on entry, and the state Answered or NoAnswer leads to decides who goes on`,
    );
  }
  const orchestration = state.orchestration ?? 'internal';
  if (orchestration !== 'internal' && (ORCHESTRATIONS as readonly string[]).includes(orchestration)) {
    report('warning', at('orchestration'), `orchestration ${orchestration} has no effect on ask state "${name}": auggy asks the person on entry`);
  }
}
