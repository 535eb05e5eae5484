import type { PersonChannel, PersonReply, PresentedQuestion } from '../../src/kernel/person.js';
import type { KernelEvent } from '../../src/kernel/events.js';

/** A reply as tests write it: a plain string is an answer. */
export type ScriptedReply = string | PersonReply;

export interface ScriptedPerson extends PersonChannel {
  /** Every question asked, in order. */
  asked: PresentedQuestion[];
}

/** A person who answers from a script and records what they were asked; `away` once it runs out. */
export function scriptedPerson(replies: ScriptedReply[], options: { present?: boolean } = {}): ScriptedPerson {
  const queue = [...replies];
  const asked: PresentedQuestion[] = [];
  return {
    asked,
    present: () => options.present ?? true,
    async ask(question) {
      asked.push(question);
      const next = queue.shift();
      if (next === undefined) return { kind: 'away' };
      return typeof next === 'string' ? { kind: 'answer', text: next } : next;
    },
  };
}

/** CUSTOM events by name, values only. */
export function customValues(events: KernelEvent[], name: string): unknown[] {
  return events.flatMap((event) => (event.type === 'CUSTOM' && event.name === name ? [event.value] : []));
}
