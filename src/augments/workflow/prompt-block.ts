import { answersForTemplates } from './ask-state.js';
import type { WorkflowModel } from './pack-model.js';
import { agentMoves } from './pack-model.js';
import { renderTemplate, templateValues } from './render-template.js';
import { TRANSITION_TOOL, arrivalNote } from './transition-tool.js';
import { ARTIFACT_TOOL } from './artifact-tool.js';
import type { RunState } from './workflow-state.js';

function movesSection(model: WorkflowModel, run: RunState): string {
  const state = model.states[run.state];
  if (run.stopped !== undefined) return `The workflow has stopped: ${run.stopped}. It cannot move any more; tell the user plainly if it matters.`;
  if (state.terminal) return `State ${state.name} is terminal: the workflow is complete. Answer the user; there is nothing left to move.`;
  if (state.ask) return `State ${state.name} is the person's: they are asked its questions, and their answer (or none) moves the workflow on, not you.`;
  if (state.orchestration === 'external' || state.orchestration === 'composition') {
    return `State ${state.name} is moved from outside (orchestration: ${state.orchestration}), not by you: answer the user and wait.`;
  }
  if (!agentMoves(state)) return `State ${state.name} declares no events, so there is nothing to move: answer the user.`;
  const lines = Object.entries(state.onEvent).map(([event, target]) => `- ${event} → ${target} (${arrivalNote(model.states[target])})`);
  return [
    `Events state ${state.name} accepts. When one has happened, call ${TRANSITION_TOOL} with it (and any facts worth carrying in \`context\`):`,
    ...lines,
    'If none has happened yet, answer the user without calling it.',
  ].join('\n');
}

/** The artifacts this state keeps and what every artifact holds so far, so the model knows what to set with workflow__set_artifact. */
function artifactsSection(model: WorkflowModel, run: RunState): string {
  if (model.artifactNames.length === 0) return '';
  const own = Object.entries(model.states[run.state].artifacts).map(([name, def]) => {
    const about = [def.description, def.type, def.mode === 'append' ? 'each value is added to the end' : undefined].filter(Boolean).join('; ');
    return `- ${name}${about ? ` (${about})` : ''}`;
  });
  const lines = own.length > 0 ? [`Artifacts of state ${run.state}; set them with ${ARTIFACT_TOOL}({name, value}) as you produce them:`, ...own] : [];
  if (Object.keys(run.artifacts).length > 0) lines.push(`Artifacts so far: ${JSON.stringify(run.artifacts)}`);
  return lines.join('\n');
}

/** What the person said in ask states, and whether the move into this state was their not answering. */
function personSection(run: RunState): string {
  const lines: string[] = [];
  if (Object.keys(run.answers).length > 0) lines.push(`The person's answers: ${JSON.stringify(run.answers)}`);
  const last = run.transitions.at(-1);
  if (last?.to === run.state && last.asked?.status === 'no-answer') {
    const why = { away: 'nobody was there to answer', refused: 'the answers given were refused too often', declined: 'the person declined' }[last.asked.reason];
    lines.push(`The person gave no answer to the questions of state ${last.from} (${last.asked.reason}: ${why}). Do not invent their answers.`);
  }
  return lines.join('\n');
}

/**
 * The workflow's part of the system prompt: the current state's rendered prompt, then which
 * events it accepts and what each leads to. Rebuilt every round, so a state the agent moved into
 * mid-turn speaks with its own prompt in the very next round.
 */
export function workflowPromptBlock(model: WorkflowModel, run: RunState, configured: Record<string, unknown>): string {
  const state = model.states[run.state];
  // A prompt set is the pack's prompt as PromptKit renders it, after the agent's identity: no states to speak of.
  if (model.promptSet) {
    const values = templateValues(state.prompt, configured, run.context);
    return state.prompt ? renderTemplate(state.prompt.system_template, model.syntax, values).trim() : '';
  }
  const header = [`Workflow: ${model.name} (PromptPack ${model.id})`, `Current state: ${state.name}${state.description ? ` — ${state.description}` : ''}`];
  const values = templateValues(state.prompt, configured, run.context, answersForTemplates(run.answers), run.artifacts);
  const prompt = state.prompt ? renderTemplate(state.prompt.system_template, model.syntax, values).trim() : '';
  const carried = Object.keys(run.context).length > 0 ? `Carried context: ${JSON.stringify(run.context)}` : '';
  return [header.join('\n'), prompt, movesSection(model, run), artifactsSection(model, run), carried, personSection(run)]
    .filter((part) => part !== '')
    .join('\n\n');
}
