/**
 * The person at the prompt, as the kernel and augments reach them mid-turn. A host with someone
 * there (the TUI) asks for real; a host with nobody (print, serve, /away) answers at once, so
 * nothing ever waits on a person who is not coming.
 */
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

export interface PersonChannel {
  /** False when nobody can answer right now (no TTY, print, serve, /away). */
  present(): boolean;
  ask(question: PresentedQuestion, signal: AbortSignal): Promise<PersonReply>;
}

/** The person of hosts where nobody is at a prompt: every question is answered "away", at once. */
export const NOBODY: PersonChannel = {
  present: () => false,
  ask: async () => ({ kind: 'away' }),
};
