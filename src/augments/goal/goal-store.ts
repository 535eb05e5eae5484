import type { SessionHandle } from '../../session/session.js';
import { MAX_VERDICTS, RESTORED_STATUSES, goalStateSchema, newGoal, type GoalState, type GoalStatus, type Verdict } from './goal-state.js';

/** The session file that holds the goal. */
export const GOAL_FILE = 'goal.json';

/**
 * Reads the saved goal when a session opens: an active, waiting or paused one is taken back; an
 * achieved or exhausted one is over and is not. A file that is not a goal is reported and set
 * aside (kept for inspection), and the session runs without one.
 */
export function loadGoal(session: SessionHandle, warn: (message: string) => void): GoalState | undefined {
  const read = session.readState(GOAL_FILE);
  if (read.status === 'missing') return undefined;
  if (read.status === 'corrupt') {
    warn(`goal: ${GOAL_FILE} was not readable JSON and was set aside as ${read.setAsideTo}; no goal is set`);
    return undefined;
  }
  const parsed = goalStateSchema.safeParse(read.value);
  if (!parsed.success) {
    try {
      const setAsideTo = session.setAsideState(GOAL_FILE, 'invalid');
      warn(
        `goal: ${GOAL_FILE} does not hold a goal (${parsed.error.issues[0]?.message ?? 'unexpected shape'}) and was set aside as ${setAsideTo}; no goal is set`,
      );
    } catch {
      warn(`goal: ${GOAL_FILE} does not hold a goal and could not be set aside; no goal is set until /goal sets one`);
    }
    return undefined;
  }
  return RESTORED_STATUSES.includes(parsed.data.status) ? parsed.data : undefined;
}

/** The session's goal, in memory and written through to goal.json on every change. */
export class GoalStore {
  private current: GoalState | undefined;
  /** When the goal last started working (set, resumed, answered): the clock maxWallSeconds reads. Never saved. */
  private workingSince: number | undefined;

  constructor(
    private readonly session: SessionHandle,
    private readonly warn: (message: string) => void,
    private readonly now: () => number = () => Date.now(),
  ) {
    this.current = loadGoal(session, warn);
    if (this.current?.status === 'active') this.workingSince = this.now();
  }

  get state(): GoalState | undefined {
    return this.current;
  }

  /** Working time so far, the running stretch included. */
  elapsedMs(): number {
    const state = this.current;
    if (!state) return 0;
    return state.elapsedMs + (this.workingSince === undefined ? 0 : this.now() - this.workingSince);
  }

  /**
   * Leaves `ms` out of the running stretch: the time a turn waited on the person's answers is
   * theirs, not the agent's work, so maxWallSeconds does not run out while they read a form.
   */
  setAside(ms: number): void {
    if (this.workingSince !== undefined && ms > 0) this.workingSince = Math.min(this.now(), this.workingSince + ms);
  }

  /** A new goal replaces any other, active at once. */
  async set(condition: string): Promise<GoalState> {
    this.workingSince = this.now();
    return this.save(newGoal(condition, new Date(this.now())));
  }

  /** Moves the goal to `status`; the working clock runs only while it is active. */
  async moveTo(status: GoalStatus, note: string | null): Promise<GoalState | undefined> {
    const state = this.current;
    if (!state) return undefined;
    const elapsedMs = this.elapsedMs();
    this.workingSince = status === 'active' ? this.now() : undefined;
    return this.save({ ...state, status, note, elapsedMs });
  }

  /** Counts a turn's tokens against the goal (saved with the next change). */
  spent(tokens: number): void {
    if (this.current) this.current = { ...this.current, tokens: this.current.tokens + tokens };
  }

  /** Records a verdict on the turn just judged. */
  async judged(met: boolean, reason: string): Promise<GoalState | undefined> {
    const state = this.current;
    if (!state) return undefined;
    const turn = state.turns + 1;
    const verdict: Verdict = { met, reason, turn, at: new Date(this.now()).toISOString() };
    return this.save({ ...state, turns: turn, verdicts: [...state.verdicts, verdict].slice(-MAX_VERDICTS) });
  }

  /** Forgets the goal and removes the file. Resolves to whether there was one. */
  async clear(): Promise<boolean> {
    const had = this.current !== undefined;
    this.current = undefined;
    this.workingSince = undefined;
    try {
      await this.session.removeState(GOAL_FILE);
    } catch (error) {
      this.warn(`goal: ${GOAL_FILE} could not be removed (${error instanceof Error ? error.message : String(error)})`);
    }
    return had;
  }

  private async save(state: GoalState): Promise<GoalState> {
    this.current = state;
    try {
      await this.session.writeState(GOAL_FILE, state);
    } catch (error) {
      // The goal still works for this run; only a resume would miss it.
      this.warn(`goal: the goal was not saved: ${error instanceof Error ? error.message : String(error)}`);
    }
    return state;
  }
}
