import { NOBODY, type PersonChannel, type PersonReply, type PresentedQuestion } from '../../../kernel/person.js';
import type { PersonScript, ScriptedAnswer } from '../scenario/types.js';

/** The person a scenario scripts: answers field by field, approvals by tool name, and what was asked unscripted. */
export interface ScenarioPerson extends PersonChannel {
  /** Whether the scenario approves this tool call (`approve:` names or globs like `mcp_ops_*`). */
  approves(toolName: string): boolean;
  /** Questionnaire fields asked that the scenario gave no answer for, in order, and what was done instead. */
  readonly unscripted: { field: string; took: 'default' | 'declined' }[];
}

/** An answer as the person would type it: lists comma separated, booleans as yes/no. */
export function answerText(value: ScriptedAnswer): string {
  if (Array.isArray(value)) return value.join(', ');
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return String(value);
}

/**
 * The tool a question asks approval for. Tools that need the person's yes (the mcp augment's
 * confirmTools) ask it as a one-field questionnaire marked with an approval purpose.
 */
export function approvalFor(question: PresentedQuestion): string | undefined {
  const purpose = (question as { purpose?: { kind?: unknown; toolName?: unknown } }).purpose;
  return purpose?.kind === 'approval' && typeof purpose.toolName === 'string' ? purpose.toolName : undefined;
}

function globMatcher(pattern: string): RegExp {
  return new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
}

/**
 * `person: away` (and a turn that scripts no one) is nobody, as under --print: every question and
 * approval gets no answer at once. A scripted person answers each field from `answers`; a field
 * it has no answer for takes the default when there is one (`-`) and is declined otherwise.
 */
export function scenarioPerson(script: PersonScript): ScenarioPerson {
  if (script.kind === 'away') return { ...NOBODY, approves: () => false, unscripted: [] };
  const approvals = script.approve.map(globMatcher);
  const unscripted: ScenarioPerson['unscripted'] = [];
  return {
    unscripted,
    present: () => true,
    approves: (toolName) => approvals.some((pattern) => pattern.test(toolName)),
    async ask(question: PresentedQuestion): Promise<PersonReply> {
      const tool = approvalFor(question);
      if (tool !== undefined) return { kind: 'answer', text: approvals.some((pattern) => pattern.test(tool)) ? 'yes' : 'no' };
      const answer = script.answers[question.field];
      if (answer !== undefined) return { kind: 'answer', text: answerText(answer) };
      const took = question.default !== undefined ? 'default' : 'declined';
      if (!unscripted.some((entry) => entry.field === question.field)) unscripted.push({ field: question.field, took });
      return took === 'default' ? { kind: 'answer', text: '-' } : { kind: 'declined' };
    },
  };
}
