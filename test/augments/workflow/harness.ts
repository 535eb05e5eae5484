import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ModelMessage } from 'ai';
import { stringify } from 'yaml';
import { z } from 'zod';
import { loadAgent } from '../../../src/agent/load-agent.js';
import { formatDiagnostic, type LoadedAgent } from '../../../src/agent/types.js';
import { workflowAugment } from '../../../src/augments/workflow/augment.js';
import type { Augment } from '../../../src/kernel/augment.js';
import type { KernelEvent } from '../../../src/kernel/events.js';
import type { PersonChannel } from '../../../src/kernel/person.js';
import { buildSystemPrompt } from '../../../src/kernel/system-prompt.js';
import { defineTool, type KernelTool } from '../../../src/kernel/tool.js';
import { runTurnLoop } from '../../../src/kernel/turn-loop.js';
import { openSession, type SessionHandle } from '../../../src/session/session.js';
import { makeAgentFolder } from '../../helpers/agent-fixture.js';
import { mockModel, type MockStep } from '../../helpers/mock-model.js';
import { BUILTIN_AUGMENTS } from '../../../src/augments/registry.js';
import { folderOf } from '../../helpers/session-folder.js';

export const PACK_FILE = 'flow.pack.yaml';

export interface PackSpec {
  entry: string;
  states: Record<string, Record<string, unknown>>;
  budget?: Record<string, number>;
  /** Prompt bodies by task; every prompt_task without one gets a short default. */
  prompts?: Record<string, Record<string, unknown>>;
  /** Tasks that get no generated prompt (to test a dangling prompt_task). */
  omitPrompts?: string[];
  version?: number;
}

/** A published-shape PromptPack (YAML) with a prompt for every task the states name. */
export function packText(spec: PackSpec): string {
  const prompts: Record<string, Record<string, unknown>> = {};
  for (const state of Object.values(spec.states)) {
    const task = state.prompt_task;
    if (typeof task === 'string' && !spec.omitPrompts?.includes(task))
      prompts[task] = { id: task, name: task, version: '1.0.0', system_template: `Do the ${task} step.` };
  }
  Object.assign(prompts, spec.prompts);
  return stringify({
    id: 'test-pack',
    name: 'Test pack',
    version: '1.0.0',
    template_engine: { version: 'v1', syntax: '{{variable}}' },
    prompts,
    workflow: {
      version: spec.version ?? 2,
      entry: spec.entry,
      states: spec.states,
      ...(spec.budget ? { engine: { budget: spec.budget } } : {}),
    },
  });
}

/** A temp agent folder whose workflow augment points at the given pack text. */
export function workflowFolder(pack: string, config = `  pack: ./${PACK_FILE}\n`, extra: Record<string, string> = {}): string {
  return makeAgentFolder({
    augments: ['workflow'],
    files: { 'augments/workflow/augment.yaml': `type: workflow\nconfig:\n${config}`, [PACK_FILE]: pack, ...extra },
  });
}

/** A plain tool the states may or may not allow, recording its calls. */
export function lookupTool(name = 'lookup', calls: string[] = []): KernelTool {
  return defineTool({
    name,
    description: 'looks a key up',
    inputSchema: z.object({ key: z.string() }),
    execute: ({ key }) => {
      calls.push(key);
      return { content: `value of ${key}` };
    },
  });
}

export interface Harness {
  agent: LoadedAgent;
  session: SessionHandle;
  augment: Augment;
  events: KernelEvent[];
  warnings: string[];
  messages: ModelMessage[];
}

export async function loadFolder(dir: string): Promise<LoadedAgent> {
  const loaded = await loadAgent(dir, BUILTIN_AUGMENTS, { processEnv: {} });
  if (!loaded.agent) throw new Error(`fixture does not load: ${loaded.diagnostics.map(formatDiagnostic).join('; ')}`);
  return loaded.agent;
}

/** The workflow augment started on a real session of the folder, as Conversation.open would. */
export async function startWorkflow(dir: string, options: { sessionId?: string } = {}): Promise<Harness> {
  const agent = await loadFolder(dir);
  const session = await openSession({ agentDir: dir, agentName: agent.yaml.name, sessionId: options.sessionId });
  const events: KernelEvent[] = [];
  const warnings: string[] = [];
  const config = agent.augments.find((a) => a.type === 'workflow')?.config ?? {};
  const augment = await workflowAugment.create({
    agent,
    augmentId: 'workflow',
    config,
    session,
    emit: (event) => events.push(event),
    complete: async () => ({ ok: false, error: 'no completions in tests' }),
    warn: (message) => warnings.push(message),
  });
  return { agent, session, augment, events, warnings, messages: [] };
}

/**
 * One turn through the real kernel loop, wired to the augment the way Conversation wires every
 * augment: tools() then filterTools() and promptBlock() each round, afterBatch after each batch.
 */
export async function runTurn(
  h: Harness,
  steps: MockStep[],
  options: { user?: string; tools?: KernelTool[]; maxInferenceLoops?: number; person?: PersonChannel; signal?: AbortSignal } = {},
) {
  const model = mockModel(steps);
  const user = options.user ?? 'please go ahead';
  h.messages.push({ role: 'user', content: user });
  await h.augment.onUserMessage?.(user);
  const result = await runTurnLoop({
    model,
    threadId: h.session.id,
    runId: `run_${h.messages.length}`,
    messages: h.messages,
    // As Conversation does: the workflow may raise the turn's one bound on rounds.
    maxInferenceLoops: Math.max(options.maxInferenceLoops ?? 10, h.augment.roundLimit?.()?.rounds ?? 0),
    roundLimitSource: h.augment.roundLimit?.()?.source,
    signal: options.signal ?? new AbortController().signal,
    // Absent, the kernel's NOBODY answers, as in --print and serve.
    person: options.person,
    emit: (event) => h.events.push(event),
    prepareRound: () => {
      const offered = [...(options.tools ?? []), ...(h.augment.tools?.() ?? [])];
      const review = h.augment.replyReviewer?.();
      return {
        system: buildSystemPrompt('You are a test agent.', [], [h.augment]),
        tools: h.augment.filterTools?.(offered) ?? offered,
        ...(review ? { review } : {}),
      };
    },
    afterBatch: async (batch, context) => (await h.augment.afterBatch?.(batch, context)) ?? undefined,
    onMessage: (message) => h.messages.push(message),
    describeError: (error) => String(error),
    maxRetries: 0,
  });
  const calls = model.doStreamCalls.map((call) => ({
    system: call.prompt
      .filter((m) => m.role === 'system')
      .map((m) => m.content)
      .join('\n'),
    tools: (call.tools ?? []).map((t) => t.name),
    toolSchemas: call.tools ?? [],
  }));
  return { result, model, calls };
}

/** `workflow.transition` events in the order they were emitted. */
export function transitions(events: KernelEvent[]): { from: string; to: string; event: string; redirected?: unknown; initiator: string; context: unknown }[] {
  return events.flatMap((event) =>
    event.type === 'CUSTOM' && event.name === 'workflow.transition'
      ? [event.value as { from: string; to: string; event: string; initiator: string; context: unknown }]
      : [],
  );
}

/** The states visited in order: the entry state, then every transition's target. */
export function stateOrder(h: Harness, entry: string): string[] {
  return [entry, ...transitions(h.events).map((t) => t.to)];
}

export function savedState(h: Harness): Record<string, unknown> {
  return JSON.parse(readFileSync(join(folderOf(h.session), 'workflow.json'), 'utf8')) as Record<string, unknown>;
}

export function transition(event: string, context?: Record<string, unknown> | string): { name: string; args: Record<string, unknown> } {
  return { name: 'workflow__transition', args: context ? { event, context } : { event } };
}

/** RFC 0014 example 1: verifying (user) → triage (agent, a pure decision point) → resolution or handoff. */
export const RFC_SUPPORT: PackSpec = {
  entry: 'verifying',
  states: {
    verifying: { prompt_task: 'verifying', control: 'user', on_event: { AccountVerified: 'triage' } },
    triage: { prompt_task: 'triage', control: 'agent', on_event: { ServeBalance: 'resolution', EscalateToAgent: 'handoff' } },
    resolution: { prompt_task: 'resolution', control: 'user', terminal: true },
    handoff: { prompt_task: 'handoff', terminal: true },
  },
};

/** RFC 0014 example 2: the codegen loop, bounded by fix.max_visits instead of a user turn. */
export function rfcCodegen(fixMaxVisits: number): PackSpec {
  return {
    entry: 'compile',
    states: {
      compile: { prompt_task: 'compile', control: 'agent', max_visits: 5, on_event: { CompileFailed: 'fix', CompileOk: 'test' } },
      test: { prompt_task: 'test', control: 'agent', max_visits: 5, on_event: { TestsFailed: 'fix', TestsPassed: 'report' } },
      fix: { prompt_task: 'fix', control: 'agent', max_visits: fixMaxVisits, on_max_visits: 'report', on_event: { PatchApplied: 'compile' } },
      report: { prompt_task: 'report', control: 'user', terminal: true },
    },
  };
}
