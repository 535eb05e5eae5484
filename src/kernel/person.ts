/**
 * The person at the prompt, as the kernel and augments reach them mid-turn. A host with someone
 * there (the TUI) asks for real; a host with nobody (print, serve for an old client, /away)
 * answers at once, so nothing ever waits on a person who is not coming; serve for an AG-UI 1.0
 * client holds the question open as an interrupt and the next run brings the answer.
 */
import type { Interrupt } from './interrupt.js';

export type QuestionFieldType = 'text' | 'number' | 'integer' | 'boolean' | 'choice' | 'list';

/** One question as shown to the person: the field makes the question. */
export interface PresentedQuestion {
  questionnaireId: string;
  field: string;
  question: string;
  type: QuestionFieldType;
  options?: string[];
  /** Shown as "or - for <default>"; `-` takes it. */
  default?: string;
  required: boolean;
  /** 1-based position and total, for `question 2 of 3`. */
  index: number;
  total: number;
  /** The questionnaire's introduction, set on the first question only. */
  intro?: string;
  /** Why the previous answer to this field was refused (zod's message), when re-asked. */
  error?: string;
  /** Set when the question is asked for someone other than the agent's model; hosts may draw it apart. */
  purpose?: QuestionPurpose;
}

/**
 * Who wants the answer, when it is not the model's own question: a tool that runs only after the
 * person's yes, an MCP server's form or link, a server that asks to use the agent's model.
 * Scripted people (auggy test) answer by it.
 */
export type QuestionPurpose =
  | { kind: 'approval'; server: string; tool: string; toolName: string; arguments: unknown }
  | { kind: 'elicitation'; server: string; url?: string }
  | { kind: 'sampling'; server: string };

export type PersonReply = { kind: 'answer'; text: string } | { kind: 'declined' } | { kind: 'away' };

/** A whole questionnaire put to a person who answers it at once, later (serve's AG-UI interrupts). */
export interface QuestionnaireAsk {
  questionnaireId: string;
  /**
   * The tool call that waits on the answers: it ends deferred while they are pending. Absent for
   * a question no call asks (a workflow ask state): the run that answers it resumes with no call.
   */
  toolCallId?: string;
  prompt: string;
  /** The fields to answer now; a field asked again carries why its last answer was refused. */
  questions: PresentedQuestion[];
  /** A JSON Schema of those fields' answers. */
  responseSchema: Record<string, unknown>;
  /** Answers already accepted, as typed, kept with the question so the resuming run has them. */
  accepted: Record<string, string>;
  /** Re-asks used so far, so the bound holds across runs. */
  reasks: number;
  purpose?: QuestionPurpose;
}

export type QuestionnaireReply =
  | { kind: 'answers'; texts: Record<string, string>; reasks: number }
  | { kind: 'declined' }
  /** Nobody can answer this here (an ACP client without forms): no answer, at once, as nobody. */
  | { kind: 'away' }
  /** Nobody answers during this run: the question is held open and the call waits. */
  | { kind: 'pending' };

export interface PersonChannel {
  /** False when nobody can answer right now (no TTY, print, serve for an old client, /away). */
  present(): boolean;
  ask(question: PresentedQuestion, signal: AbortSignal): Promise<PersonReply>;
  /**
   * Present where the person answers a whole questionnaire in one go, outside the run (serve for
   * an AG-UI 1.0 client); absent, questions are asked field by field with `ask`.
   */
  askQuestionnaire?(ask: QuestionnaireAsk, signal: AbortSignal): Promise<QuestionnaireReply>;
  /**
   * The questions open at the turn's end, for its outcome: those this channel left open, then
   * `asked`, the turn's own (request_input's), as the channel holds them (with when they expire),
   * so the session log, stream-json and the wire carry one object.
   */
  openInterrupts?(asked: readonly Interrupt[]): Interrupt[];
}

/** The person of hosts where nobody is at a prompt: every question is answered "away", at once. */
export const NOBODY: PersonChannel = {
  present: () => false,
  ask: async () => ({ kind: 'away' }),
};

/**
 * `person`, with the time spent waiting on their answers added to `waited.ms`: a bound on the
 * agent's working time (the goal's maxWallSeconds) leaves out the minutes a person took to answer.
 */
export function timedPerson(person: PersonChannel, waited: { ms: number }): PersonChannel {
  const timed = async <T>(ask: () => Promise<T>): Promise<T> => {
    const start = performance.now();
    try {
      return await ask();
    } finally {
      waited.ms += performance.now() - start;
    }
  };
  const askQuestionnaire = person.askQuestionnaire?.bind(person);
  return {
    present: () => person.present(),
    ask: (question, signal) => timed(() => person.ask(question, signal)),
    ...(askQuestionnaire ? { askQuestionnaire: (ask: QuestionnaireAsk, signal: AbortSignal) => timed(() => askQuestionnaire(ask, signal)) } : {}),
    ...(person.openInterrupts ? { openInterrupts: person.openInterrupts.bind(person) } : {}),
  };
}
