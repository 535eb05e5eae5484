import { dirname } from 'node:path';
import { z } from 'zod';
import type { Diagnostic } from '../../agent/types.js';
import type { AdminRow, AugmentFactory, Augment } from '../../kernel/augment.js';
import { configDiagnostics } from '../config-diagnostics.js';
import { loadPackFile } from './load-pack.js';
import { listedTools, loadWorkflow, providesTool, type WorkflowModel } from './pack-model.js';
import { TRANSITION_TOOL } from './transition-tool.js';
import { ARTIFACT_TOOL } from './artifact-tool.js';
import { validatePack } from './validate-pack.js';
import { workflowCommand } from './workflow-command.js';
import { WorkflowRuntime, transitionValue } from './workflow-runtime.js';
import { WORKFLOW_STATE_FILE } from './workflow-state.js';
import { promptGuardrails, validatorsNotRun } from './guardrails.js';

const configSchema = z.object({
  /** The PromptPack file, relative to the agent folder. */
  pack: z.string().trim().min(1, 'is required: the PromptPack file, like ./support.pack.yaml'),
  /** Values for the pack's template variables, over the variables' defaults. */
  variables: z.record(z.string(), z.unknown()).optional(),
  /** For a pack without a workflow: which of its prompts the agent runs (default: its only, else its first). */
  prompt: z.string().trim().min(1).optional(),
});

const SUMMARY =
  'Runs a PromptPack workflow: each state brings its own prompt and tools, workflow__transition moves between states, ' +
  'and a control: agent state keeps the floor for another round instead of yielding (Level 2).';

function stateRows(model: WorkflowModel): AdminRow[] {
  return Object.values(model.states).map((state) => {
    const traits = state.ask ? [`asks the person: ${state.ask.fields.map((field) => field.name).join(', ')}`] : [`control: ${state.control}`];
    if (state.orchestration !== 'internal') traits.push(`orchestration: ${state.orchestration}`);
    if (state.terminal) traits.push('terminal');
    if (Object.keys(state.artifacts).length > 0) traits.push(`artifacts: ${Object.keys(state.artifacts).join(', ')}`);
    if (state.maxVisits !== undefined) traits.push(`max_visits ${state.maxVisits}${state.onMaxVisits ? ` → ${state.onMaxVisits}` : ''}`);
    const events = Object.entries(state.onEvent).map(([event, target]) => `${event} → ${target}`);
    const tools = state.prompt?.tools?.length ? `; tools: ${state.prompt.tools.join(', ')}` : '';
    const guards = promptGuardrails(state.prompt?.validators).guardrails.map((guardrail) => guardrail.type);
    if (guards.length > 0) traits.push(`guardrails: ${guards.join(', ')}`);
    return { label: `State ${state.name}`, value: `${traits.join(', ')}${events.length ? `; ${events.join(', ')}` : ''}${tools}` };
  });
}

function budgetText(model: WorkflowModel): string {
  const entries = Object.entries(model.budget).filter(([, value]) => typeof value === 'number');
  return entries.length === 0 ? 'none (unlimited)' : entries.map(([key, value]) => `${key} ${String(value)}`).join(', ');
}

/** A workflow whose pack cannot be used: it says so once and otherwise stays out of the way. */
function inertAugment(id: string): Augment {
  return { id };
}

export const workflowAugment: AugmentFactory = {
  type: 'workflow',
  summary: SUMMARY,
  skill: 'workflow',
  validateConfig(config, file, agentDir): Diagnostic[] {
    const configErrors = configDiagnostics(configSchema, config, file);
    if (configErrors.length > 0) return configErrors;
    const { pack, prompt } = configSchema.parse(config);
    const loaded = loadPackFile(agentDir, pack);
    const diagnostics =
      loaded.pack && loaded.source ? validatePack(loaded.pack, loaded.source, prompt, { agentDir, packDir: dirname(loaded.path) }) : loaded.diagnostics;
    // A missing top-level key has no line of its own; point at the pack's top rather than let the
    // caller look the field up in augment.yaml.
    return diagnostics.map((d) => (d.field !== undefined && d.line === undefined ? { ...d, line: 1, column: 1 } : d));
  },
  describe(agent, config) {
    const parsed = configSchema.safeParse(config);
    const loaded = parsed.success ? loadWorkflow(agent.dir, parsed.data.pack, parsed.data.prompt) : undefined;
    const rows: AdminRow[] = [
      {
        label: 'Exposed tool',
        value: `${TRANSITION_TOOL}({event, context}) in states the agent moves; ${ARTIFACT_TOOL}({name, value}) when the pack declares artifacts`,
      },
    ];
    if (!loaded) rows.push({ label: 'Pack', value: 'config.pack is not set' });
    else if (!loaded.ok) rows.push({ label: 'Pack', value: loaded.error });
    else {
      const { model } = loaded;
      rows.push(
        { label: 'Pack', value: `${model.name} (${model.id}) from ${model.file}` },
        { label: 'Entry', value: model.entry },
        { label: 'Budget', value: budgetText(model) },
        { label: 'Control', value: 'Level 2: control: agent states run another round at once; user states yield' },
        ...stateRows(model),
      );
    }
    return { id: 'workflow', type: 'workflow', tools: [TRANSITION_TOOL], behavior: SUMMARY, rows };
  },
  async probe(agent, config) {
    const parsed = configSchema.safeParse(config);
    const loaded = parsed.success ? loadWorkflow(agent.dir, parsed.data.pack, parsed.data.prompt) : undefined;
    if (!loaded?.ok) return { rows: [], tools: [TRANSITION_TOOL], diagnostics: [] };
    const { model } = loaded;
    const wantedTools = listedTools(model).map(({ tool, where }) => ({
      tool,
      file: model.file,
      matches: (offered: string) => providesTool(offered, tool),
      message: `${where} lists tool ${tool}, which nothing here provides (no augment, no MCP server offers it)${
        model.declaredTools.includes(tool) ? '; the pack declares it but gives no implementation' : ''
      }, so it is left out; add an MCP server that offers it, or remove it from the prompt's tools`,
    }));
    const own = [...(model.artifactNames.length > 0 ? [ARTIFACT_TOOL] : []), ...model.mockTools.map((tool) => tool.name)];
    return { rows: [], tools: [TRANSITION_TOOL, ...own], diagnostics: [], wantedTools };
  },
  async create(setup) {
    const parsed = configSchema.safeParse(setup.config);
    if (!parsed.success) {
      setup.warn('workflow: config.pack is not set in augments/workflow/augment.yaml; the workflow is off');
      return inertAugment(setup.augmentId);
    }
    const loaded = loadWorkflow(setup.agent.dir, parsed.data.pack, parsed.data.prompt);
    if (!loaded.ok) {
      setup.warn(`workflow: ${loaded.error}; the workflow is off`);
      return inertAugment(setup.augmentId);
    }
    const runtime = new WorkflowRuntime({
      model: loaded.model,
      session: setup.session,
      emit: setup.emit,
      warn: setup.warn,
      variables: parsed.data.variables ?? {},
      env: { ...process.env, ...setup.agent.env },
    });
    await runtime.started;
    // Named in --output json, so guardrail_triggered reports one of them skipped rather than untriggered.
    const notRun = validatorsNotRun(Object.values(loaded.model.states).flatMap((state) => (state.prompt ? [state.prompt] : [])));
    // A run elsewhere (another replica, a --print on the same store) moved the workflow: this one's next turn starts there.
    setup.session.watchState((name) => {
      if (name === WORKFLOW_STATE_FILE) runtime.reload();
    });
    return {
      id: setup.augmentId,
      tools: () => runtime.offeredTools(),
      filterTools: (tools) => runtime.filterTools(tools),
      promptBlock: () => runtime.promptBlock(),
      onUserMessage: () => runtime.onUserMessage(),
      afterBatch: (batch, context) => runtime.afterBatch(batch, context),
      roundLimit: () => runtime.roundLimit(),
      callSettings: () => runtime.callSettings(),
      replyReviewer: () => runtime.replyReviewer(),
      hostInput: (name, value) => (name === 'event' ? runtime.applyExternal(value) : undefined),
      commands: () => [workflowCommand(runtime)],
      indicator: () => {
        const { state, complete, stopped } = runtime.position;
        return `workflow: ${state}${stopped !== undefined ? ' (stopped)' : complete ? ' (complete)' : ''}`;
      },
      onCleared: () => runtime.reset(),
      snapshot: () => {
        const { state, complete, stopped, transitions, visits, artifacts } = runtime.position;
        return {
          workflow: {
            state,
            complete,
            ...(stopped !== undefined ? { stopped } : {}),
            visits,
            transitions: transitions.map(transitionValue),
            ...(runtime.model.artifactNames.length > 0 ? { artifacts } : {}),
            ...(notRun.length > 0 ? { validatorsNotRun: notRun } : {}),
          },
        };
      },
    };
  },
};
