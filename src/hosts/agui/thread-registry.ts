import type { Conversation } from '../../kernel/conversation.js';

/** A run in progress on one thread: how to stop it and when it has settled. */
export interface ActiveRun {
  readonly threadId: string;
  readonly controller: AbortController;
  readonly settled: Promise<void>;
  /** The run's conversation once it is open: a board write meanwhile goes through it. */
  conversation?: Conversation;
}

export type OpenConversation = (threadId: string) => Promise<Conversation>;

/**
 * One Conversation per thread, at most one run per thread at a time. Idle conversations are
 * kept (most recent last) so the next message skips re-reading the session; past `maxIdle` the
 * oldest is dropped, which is safe because the session on disk is the source of truth.
 */
export class ThreadRegistry {
  private readonly idle = new Map<string, Conversation>();
  private readonly inFlight = new Map<string, ActiveRun>();

  /**
   * `maxIdle` 0 keeps nothing between runs: with a store other replicas write too, a kept
   * conversation could be behind the session it was read from.
   */
  constructor(
    private readonly openConversation: OpenConversation,
    private readonly maxIdle = 64,
  ) {}

  /** The run in progress on a thread in this process, if any. */
  active(threadId: string): ActiveRun | undefined {
    return this.inFlight.get(threadId);
  }

  /**
   * Claims the thread for a run, synchronously so two requests racing on one thread cannot
   * both pass; undefined when a run is already in progress there.
   */
  claim(threadId: string): { run: ActiveRun; release(): void } | undefined {
    if (this.inFlight.has(threadId)) return undefined;
    let done!: () => void;
    const settled = new Promise<void>((resolve) => (done = resolve));
    const run: ActiveRun = { threadId, controller: new AbortController(), settled };
    this.inFlight.set(threadId, run);
    return {
      run,
      release: () => {
        if (this.inFlight.get(threadId) === run) this.inFlight.delete(threadId);
        done();
      },
    };
  }

  /** The thread's conversation: the kept one, or opened from its session (created when new). */
  async conversation(threadId: string): Promise<Conversation> {
    const kept = this.idle.get(threadId);
    if (kept) {
      this.idle.delete(threadId);
      return kept;
    }
    return this.openConversation(threadId);
  }

  /** Hands a conversation back after its run. */
  keep(threadId: string, conversation: Conversation): void {
    this.idle.delete(threadId);
    this.idle.set(threadId, conversation);
    while (this.idle.size > this.maxIdle) {
      const [oldest, dropped] = this.idle.entries().next().value ?? [];
      if (oldest === undefined || dropped === undefined) break;
      this.idle.delete(oldest);
      void dropped.session.close().catch(() => undefined);
    }
  }

  /** The runs in progress right now. */
  runs(): ActiveRun[] {
    return [...this.inFlight.values()];
  }
}
