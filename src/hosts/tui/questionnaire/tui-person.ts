import type { PersonChannel, PersonReply, PresentedQuestion } from '../../../kernel/person.js';

/** What the TUI draws: the question waiting for the person (the oldest asked), and whether they are away. */
export interface PersonSnapshot {
  question?: PresentedQuestion;
  away: boolean;
}

/** The person at the TUI, as a store: the kernel asks through `person`, the screen reads and answers the rest. */
export interface TuiPerson {
  /** Hand this to `conversation.runTurn(text, { person })`. */
  person: PersonChannel;
  /** Same object until something changes, as `useSyncExternalStore` wants. */
  snapshot(): PersonSnapshot;
  subscribe(listener: () => void): () => void;
  /** Answers the question on screen with the line typed; nothing happens when none is. */
  answer(text: string): void;
  /** Esc: the person will not answer the question on screen. */
  decline(): void;
  /** `/away`: every question, the one on screen included, is answered "away" at once until `setAway(false)`. */
  setAway(away: boolean): void;
}

interface Waiting {
  question: PresentedQuestion;
  settle(reply: PersonReply): void;
}

export function createTuiPerson(options: { away?: boolean } = {}): TuiPerson {
  // Questions wait in the order asked; the screen shows the oldest.
  const waiting: Waiting[] = [];
  const listeners = new Set<() => void>();
  let away = options.away ?? false;
  let snapshot: PersonSnapshot = { away };

  const changed = () => {
    snapshot = { question: waiting[0]?.question, away };
    for (const listener of [...listeners]) listener();
  };

  const settleFirst = (reply: PersonReply) => {
    const first = waiting.shift();
    if (!first) return;
    first.settle(reply);
    changed();
  };

  const person: PersonChannel = {
    present: () => !away,
    ask(question, signal) {
      if (away) return Promise.resolve({ kind: 'away' });
      if (signal.aborted) return Promise.resolve({ kind: 'declined' });
      return new Promise<PersonReply>((resolve) => {
        const entry: Waiting = {
          question,
          settle: (reply) => {
            signal.removeEventListener('abort', onAbort);
            resolve(reply);
          },
        };
        // A canceled turn takes its question off the screen.
        const onAbort = () => {
          const at = waiting.indexOf(entry);
          if (at < 0) return;
          waiting.splice(at, 1);
          entry.settle({ kind: 'declined' });
          changed();
        };
        signal.addEventListener('abort', onAbort, { once: true });
        waiting.push(entry);
        changed();
      });
    },
  };

  return {
    person,
    snapshot: () => snapshot,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    answer: (text) => settleFirst({ kind: 'answer', text }),
    decline: () => settleFirst({ kind: 'declined' }),
    setAway(next) {
      if (next === away) return;
      away = next;
      if (away) for (const entry of waiting.splice(0)) entry.settle({ kind: 'away' });
      changed();
    },
  };
}
