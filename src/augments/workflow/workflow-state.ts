import { z } from 'zod';
import type { SessionHandle } from '../../session/session.js';
import type { WorkflowModel } from './pack-model.js';

/** The session file that holds the workflow's position. */
export const WORKFLOW_STATE_FILE = 'workflow.json';

const contextSchema = z.record(z.string(), z.unknown());

/** One answer as the questionnaire reads it (AnswerValue). */
const answerValueSchema = z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]);

export const transitionRecordSchema = z.object({
  from: z.string(),
  to: z.string(),
  event: z.string(),
  /** As given: PromptKit's summary string, or an object of facts. */
  context: z.union([z.string(), contextSchema]).optional(),
  /** Set when max_visits sent the workflow to on_max_visits instead of the event's target. */
  redirected: z.object({ target: z.string(), maxVisits: z.number().int() }).optional(),
  /**
   * Who fired the event: the agent's workflow__transition, a host (--event, /workflow event), or
   * the person's questionnaire in an ask state (Answered / NoAnswer).
   */
  initiator: z.enum(['agent', 'external', 'person']),
  /** On a move out of an ask state: how its questionnaire ended, and why nobody answered. */
  asked: z
    .discriminatedUnion('status', [
      z.object({ questionnaireId: z.string(), status: z.literal('answered') }),
      z.object({ questionnaireId: z.string(), status: z.literal('no-answer'), reason: z.enum(['away', 'refused', 'declined']) }),
    ])
    .optional(),
  at: z.string(),
});
export type TransitionRecord = z.infer<typeof transitionRecordSchema>;

export const runStateSchema = z.object({
  version: z.literal(1),
  /** The pack's id, so a session resumed against another pack starts over instead of misreading. */
  pack: z.string(),
  state: z.string(),
  /** Entries per state; entering the entry state counts. */
  visits: z.record(z.string(), z.number().int().min(0)),
  transitions: z.array(transitionRecordSchema),
  toolCalls: z.number().int().min(0),
  startedAt: z.string(),
  /** What transitions carried forward, merged; templates read it. */
  context: contextSchema,
  complete: z.boolean(),
  /** Why the workflow stopped early (a budget limit, or max_visits with no on_max_visits). */
  stopped: z.string().optional(),
  /** What the person answered in ask states, latest per field; templates read `{{answers.NAME}}`. */
  answers: z.record(z.string(), answerValueSchema).default({}),
  /** Milliseconds spent waiting on the person in ask states: their thinking is not the workflow's wall time. */
  personMs: z.number().min(0).default(0),
  /** RFC 0009: the artifacts' current values, carried across states; templates read `{{artifacts.NAME}}`. */
  artifacts: z.record(z.string(), z.string()).default({}),
  /** The artifacts' values at each transition, as PromptKit's artifact_history keeps them. */
  artifactHistory: z
    .array(z.object({ from: z.string(), to: z.string(), event: z.string(), values: z.record(z.string(), z.string()), at: z.string() }))
    .default([]),
});
export type RunState = z.infer<typeof runStateSchema>;

export function freshRunState(model: WorkflowModel, now: Date): RunState {
  return {
    version: 1,
    pack: model.id,
    state: model.entry,
    visits: { [model.entry]: 1 },
    transitions: [],
    toolCalls: 0,
    startedAt: now.toISOString(),
    context: {},
    complete: model.states[model.entry]?.terminal ?? false,
    answers: {},
    personMs: 0,
    artifacts: {},
    artifactHistory: [],
  };
}

export function totalVisits(run: RunState): number {
  return Object.values(run.visits).reduce((sum, count) => sum + count, 0);
}

/**
 * The session's workflow position, or a fresh one at the entry state. A file that cannot be used
 * (corrupt, another pack, a state the pack no longer has) is reported and replaced, never fatal.
 */
export function loadRunState(session: SessionHandle, model: WorkflowModel, warn: (message: string) => void, now: Date): { run: RunState; saved: boolean } {
  const fresh = { run: freshRunState(model, now), saved: false };
  const read = session.readState(WORKFLOW_STATE_FILE);
  if (read.status === 'corrupt') warn(`workflow: ${WORKFLOW_STATE_FILE} was unreadable and was set aside (${read.setAsideTo}); starting at ${model.entry}`);
  if (read.status !== 'ok') return fresh;
  const parsed = runStateSchema.safeParse(read.value);
  if (!parsed.success) {
    warn(`workflow: ${WORKFLOW_STATE_FILE} is not in the expected form; starting at ${model.entry}`);
    return fresh;
  }
  if (parsed.data.pack !== model.id || !(parsed.data.state in model.states)) {
    warn(`workflow: the saved position (${parsed.data.pack} / ${parsed.data.state}) does not fit the pack ${model.id}; starting at ${model.entry}`);
    return fresh;
  }
  return { run: parsed.data, saved: true };
}

/** Writes the position; a disk problem is a warning and the run carries on. */
export async function saveRunState(session: SessionHandle, run: RunState, warn: (message: string) => void): Promise<void> {
  try {
    await session.writeState(WORKFLOW_STATE_FILE, run);
  } catch (error) {
    warn(`workflow: position not saved: ${error instanceof Error ? error.message : String(error)}`);
  }
}
