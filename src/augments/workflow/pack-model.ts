import { dirname } from 'node:path';
import { formatDiagnostic } from '../../agent/types.js';
import { questionnaireSpecSchema, type QuestionnaireSpec } from '../questions/index.js';
import { loadPackFile } from './load-pack.js';
import { isTerminalState } from './pack-graph.js';
import type { Control, Orchestration, PackFile, PackPrompt, WorkflowBudget } from './pack-schema.js';
import { promptSetTask } from './prompt-set.js';
import { packMockTools, type PackFiles, type PackMockTool } from './pack-tools.js';
import { validatePack } from './validate-pack.js';

/** An RFC 0009 artifact slot: its MIME type, what it holds, and whether a write replaces it or adds to it. */
export interface ArtifactDef {
  type?: string;
  description?: string;
  mode: 'replace' | 'append';
}

/** One state as the runtime uses it: defaults applied, its prompt resolved. */
export interface StateDef {
  name: string;
  description?: string;
  onEvent: Record<string, string>;
  terminal: boolean;
  maxVisits?: number;
  onMaxVisits?: string;
  orchestration: Orchestration;
  control: Control;
  prompt?: PackPrompt;
  /** Set on a person state: entering it asks these questions instead of running a model round. */
  ask?: QuestionnaireSpec;
  /** The artifacts this state declares (RFC 0009). */
  artifacts: Record<string, ArtifactDef>;
}

export interface WorkflowModel {
  id: string;
  name: string;
  /** The pack file as diagnostics name it. */
  file: string;
  entry: string;
  states: Record<string, StateDef>;
  budget: WorkflowBudget;
  /** The pack's placeholder form, `{{variable}}` unless template_engine.syntax says otherwise. */
  syntax: string;
  /** A pack without a workflow: one state, the chosen prompt, nothing to move. */
  promptSet: boolean;
  /** The tools the pack declares (`tools:`), by name: what a prompt may list. */
  declaredTools: string[];
  /** The pack's tools with their own mock result, offered by the workflow augment itself. */
  mockTools: PackMockTool[];
  /** Every artifact any state declares, sorted: workflow__set_artifact is offered when there is one. */
  artifactNames: string[];
}

/** The agent moves this state itself: it is offered workflow__transition there. An ask state moves on the person's answer. */
export function agentMoves(state: StateDef): boolean {
  return (
    state.ask === undefined &&
    !state.terminal &&
    (state.orchestration === 'internal' || state.orchestration === 'hybrid') &&
    Object.keys(state.onEvent).length > 0
  );
}

function packBasics(pack: PackFile, file: string, files?: PackFiles) {
  return {
    id: pack.id ?? file,
    name: pack.name ?? pack.id ?? file,
    file,
    syntax: pack.template_engine?.syntax ?? '{{variable}}',
    declaredTools: Object.keys(pack.tools ?? {}),
    mockTools: packMockTools(pack, files),
  };
}

/** A pack without a workflow as one state that runs the chosen prompt and moves nowhere. */
function compilePromptSet(pack: PackFile, file: string, task: string, files?: PackFiles): WorkflowModel {
  const state: StateDef = { name: task, onEvent: {}, terminal: false, orchestration: 'internal', control: 'user', prompt: pack.prompts[task], artifacts: {} };
  return { ...packBasics(pack, file, files), entry: task, states: { [task]: state }, budget: {}, promptSet: true, artifactNames: [] };
}

/**
 * Whether an offered tool is the one a pack lists: the same name, or an MCP server's tool of that
 * name (`get_weather` is `mcp_weather_get_weather`), since a pack names tools as their servers do.
 */
export function providesTool(offered: string, listed: string): boolean {
  if (offered === listed) return true;
  return offered.startsWith('mcp_') && offered.endsWith(`_${listed.replace(/[^A-Za-z0-9_]/g, '_')}`);
}

/** Every tool a prompt the workflow can run lists, with where it is listed, for validate. */
export function listedTools(model: WorkflowModel): { tool: string; where: string }[] {
  const seen = new Map<string, string>();
  for (const state of Object.values(model.states)) {
    for (const tool of state.prompt?.tools ?? []) if (!seen.has(tool)) seen.set(tool, model.promptSet ? `prompt ${state.name}` : `state ${state.name}`);
  }
  return [...seen].map(([tool, where]) => ({ tool, where }));
}

/** Builds the runtime model of a pack that passed validation (no errors). */
export function compileWorkflow(pack: PackFile, file: string, chosenPrompt?: string, files?: PackFiles): WorkflowModel {
  if (!pack.workflow) {
    const chosen = promptSetTask(pack, chosenPrompt);
    if ('error' in chosen) throw new Error(chosen.error);
    return compilePromptSet(pack, file, chosen.task, files);
  }
  const states: Record<string, StateDef> = {};
  for (const [name, state] of Object.entries(pack.workflow.states)) {
    states[name] = {
      name,
      description: state.description,
      onEvent: { ...(state.on_event ?? {}) },
      terminal: isTerminalState(state),
      maxVisits: state.max_visits,
      onMaxVisits: state.on_max_visits,
      orchestration: (state.orchestration ?? 'internal') as Orchestration,
      // Absent control is user, and nothing downstream can tell the two apart (RFC 0014 rule 2).
      control: (state.control ?? 'user') as Control,
      prompt: state.prompt_task === undefined ? undefined : pack.prompts[state.prompt_task],
      ...(state.ask === undefined ? {} : { ask: questionnaireSpecSchema.parse(state.ask) }),
      artifacts: Object.fromEntries(
        Object.entries(state.artifacts ?? {}).map(([slot, def]) => [
          slot,
          { type: def.type, description: def.description, mode: def.mode === 'append' ? ('append' as const) : ('replace' as const) },
        ]),
      ),
    };
  }
  const artifactNames = [...new Set(Object.values(states).flatMap((state) => Object.keys(state.artifacts)))].sort();
  return { ...packBasics(pack, file, files), entry: pack.workflow.entry, states, budget: pack.workflow.engine?.budget ?? {}, promptSet: false, artifactNames };
}

export type WorkflowLoad = { ok: true; model: WorkflowModel; warnings: string[] } | { ok: false; error: string };

/** Loads, validates and compiles the pack named by config.pack; errors come back as one readable message. */
export function loadWorkflow(agentDir: string, packPath: string, chosenPrompt?: string): WorkflowLoad {
  const loaded = loadPackFile(agentDir, packPath);
  const files: PackFiles = { agentDir, packDir: dirname(loaded.path) };
  const diagnostics = loaded.pack && loaded.source ? validatePack(loaded.pack, loaded.source, chosenPrompt, files) : loaded.diagnostics;
  const errors = diagnostics.filter((d) => d.severity === 'error');
  if (!loaded.pack || errors.length > 0) {
    const shown = (errors.length > 0 ? errors : diagnostics).slice(0, 3).map(formatDiagnostic).join('; ');
    return { ok: false, error: `the workflow pack has errors (run auggy validate): ${shown}` };
  }
  return {
    ok: true,
    model: compileWorkflow(loaded.pack, loaded.file, chosenPrompt, files),
    warnings: diagnostics.filter((d) => d.severity === 'warning').map(formatDiagnostic),
  };
}
