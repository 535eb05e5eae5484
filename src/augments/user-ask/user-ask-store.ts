import type { SessionHandle } from '../../session/session.js';
import { applyEvaluation, askStateSchema, replaceAsk, type AskSource, type AskState, type Outcome } from './ask-state.js';

/** The session file that holds the tracked ask. */
export const USER_ASK_FILE = 'user_ask.json';

/**
 * Reads the saved ask when a session opens. A file that is not JSON, or not an ask, is reported
 * and set aside (renamed, kept for inspection), and the session runs without it. The count of
 * evaluated turns belongs to one run of the host, so a resumed ask starts it again at 0.
 */
export function loadAskState(session: SessionHandle, warn: (message: string) => void): AskState | undefined {
  const read = session.readState(USER_ASK_FILE);
  if (read.status === 'missing') return undefined;
  if (read.status === 'corrupt') {
    warn(`userAsk: ${USER_ASK_FILE} was not readable JSON and was set aside as ${read.setAsideTo}; no ask is tracked`);
    return undefined;
  }
  const parsed = askStateSchema.safeParse(read.value);
  if (!parsed.success) {
    try {
      const setAsideTo = session.setAsideState(USER_ASK_FILE, 'invalid');
      warn(
        `userAsk: ${USER_ASK_FILE} does not hold an ask (${parsed.error.issues[0]?.message ?? 'unexpected shape'}) and was set aside as ${setAsideTo}; no ask is tracked`,
      );
    } catch {
      warn(`userAsk: ${USER_ASK_FILE} does not hold an ask and could not be set aside; no ask is tracked until it is replaced`);
    }
    return undefined;
  }
  return { ...parsed.data, evaluatedTurns: 0 };
}

/** The session's tracked ask, kept in memory and written through to user_ask.json on every change. */
export class UserAskStore {
  private current: AskState | undefined;

  constructor(
    private readonly session: SessionHandle,
    private readonly warn: (message: string) => void,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.current = loadAskState(session, warn);
  }

  /**
   * Another writer changed user_ask.json (a run on another replica): take its ask. The count of
   * evaluated turns stays this host's while the ask is the same one.
   */
  reload(): void {
    const fresh = loadAskState(this.session, this.warn);
    const sameAsk = fresh !== undefined && this.current !== undefined && fresh.text === this.current.text;
    this.current = fresh && sameAsk && this.current ? { ...fresh, evaluatedTurns: this.current.evaluatedTurns } : fresh;
  }

  get state(): AskState | undefined {
    return this.current;
  }

  /** The ask being judged after each turn, if any. */
  get active(): AskState | undefined {
    return this.current?.active ? this.current : undefined;
  }

  /** Records a new ask (the previous one becomes a revision); resolves once it is saved or said not to be. */
  async set(text: string, source: AskSource): Promise<AskState> {
    const next = replaceAsk(this.current, text, source, this.now());
    this.current = next;
    await this.save(next);
    return next;
  }

  /** Records an evaluation of the active ask; achieved and blocked close it. */
  async evaluated(outcome: Outcome, reason: string): Promise<AskState | undefined> {
    if (!this.current) return undefined;
    const next = applyEvaluation(this.current, outcome, reason);
    this.current = next;
    await this.save(next);
    return next;
  }

  /** Forgets the ask and its history, and removes the file. Resolves to whether there was one. */
  async clear(): Promise<boolean> {
    const had = this.current !== undefined;
    this.current = undefined;
    try {
      await this.session.removeState(USER_ASK_FILE);
    } catch (error) {
      this.warn(`userAsk: ${USER_ASK_FILE} could not be removed (${error instanceof Error ? error.message : String(error)})`);
    }
    return had;
  }

  private async save(state: AskState): Promise<void> {
    try {
      await this.session.writeState(USER_ASK_FILE, state);
    } catch (error) {
      // The ask still works for this run; only a resume would miss it.
      this.warn(`userAsk: the ask was not saved: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
