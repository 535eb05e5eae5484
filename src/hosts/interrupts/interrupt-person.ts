import type { ResumeEntry } from '@ag-ui/core';
import type { Interrupt } from '../../kernel/interrupt.js';
import type { PersonChannel, PersonReply, PresentedQuestion, QuestionnaireAsk, QuestionnaireReply } from '../../kernel/person.js';
import { asTyped, DASH } from '../../augments/questions/index.js';
import type { HeldInterrupt } from './held-interrupts.js';

/** A held question and the resume entry that answers it in this run. */
export interface Answer {
  held: HeldInterrupt;
  entry: Pick<ResumeEntry, 'status' | 'payload'>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `{approved, always}` as the approval's own choice: yes, no, or always for this thread. */
function approvalText(payload: unknown, options: readonly string[]): string {
  const [yes, no, always] = options;
  if (!isRecord(payload) || typeof payload.approved !== 'boolean') return asTyped(isRecord(payload) ? payload.approved : payload);
  if (!payload.approved) return no ?? 'no';
  return payload.always === true ? (always ?? yes ?? 'yes') : (yes ?? 'yes');
}

const APPROVAL_SCHEMA: Record<string, unknown> = {
  type: 'object',
  properties: {
    approved: { type: 'boolean', title: 'Allow this call?', description: 'true runs the tool; false refuses it' },
    always: { type: 'boolean', title: 'Allow this tool for the rest of the thread', default: false },
  },
  required: ['approved'],
  additionalProperties: false,
};

/**
 * The person of an AG-UI 1.0 client: present, and never waited on. A questionnaire is answered
 * from this run's resume entries when one answers it; otherwise it is held open as an interrupt,
 * and the call (or workflow ask state) that asked waits for a later run. Field-by-field questions
 * (a host's `ask`) are answered "away".
 */
export class InterruptPerson implements PersonChannel {
  private readonly held: HeldInterrupt[] = [];
  private readonly used = new Set<string>();

  constructor(
    private readonly answers: ReadonlyMap<string, Answer>,
    /** When a question asked now stops being answered; undefined waits as long as it takes. */
    private readonly expiresAt: () => string | undefined,
  ) {}

  present(): boolean {
    return true;
  }

  async ask(): Promise<PersonReply> {
    return { kind: 'away' };
  }

  async askQuestionnaire(ask: QuestionnaireAsk): Promise<QuestionnaireReply> {
    const given = this.answers.get(ask.questionnaireId);
    if (given && !this.used.has(ask.questionnaireId)) {
      this.used.add(ask.questionnaireId);
      if (given.entry.status === 'cancelled') return { kind: 'declined' };
      return { kind: 'answers', texts: this.texts(ask, given), reasks: given.held.reasks ?? 0 };
    }
    this.held.push(this.hold(ask));
    return { kind: 'pending' };
  }

  /** request_input's question is held too, answered by the next turn's message; each gets its expiry here, once. */
  openInterrupts(asked: readonly Interrupt[]): Interrupt[] {
    const known = new Set(this.held.map((held) => held.interrupt.id));
    for (const interrupt of asked) {
      if (known.has(interrupt.id)) continue;
      const expiresAt = this.expiresAt();
      this.held.push({ interrupt: expiresAt === undefined ? interrupt : { ...interrupt, expiresAt }, kind: 'reply' });
    }
    return this.held.map((held) => held.interrupt);
  }

  /** What this run left open, with what finishing it needs. */
  heldRecords(): HeldInterrupt[] {
    return [...this.held];
  }

  private texts(ask: QuestionnaireAsk, given: Answer): Record<string, string> {
    const { payload } = given.entry;
    if (given.held.approvalOptions) return { [ask.questions[0]?.field ?? 'approve']: approvalText(payload, given.held.approvalOptions) };
    const values = isRecord(payload) ? payload : {};
    // The payload answers the fields the interrupt asked; those accepted in an earlier run stand;
    // a field left out takes its default or stays empty where it may, as `-` does at the terminal.
    const accepted = given.held.accepted ?? {};
    const leftOut = (question: PresentedQuestion) => accepted[question.field] ?? (question.default !== undefined || !question.required ? DASH : '');
    return Object.fromEntries(
      ask.questions.map((question) => [question.field, question.field in values ? asTyped(values[question.field]) : leftOut(question)]),
    );
  }

  private hold(ask: QuestionnaireAsk): HeldInterrupt {
    // One id per asking: a question asked again after a refused answer is a new interrupt.
    const id = ask.reasks === 0 ? `int_${ask.questionnaireId}` : `int_${ask.questionnaireId}_${ask.reasks}`;
    const expiresAt = this.expiresAt();
    const approval = ask.purpose?.kind === 'approval' ? ask.purpose : undefined;
    const refused = ask.questions.filter((question) => question.error !== undefined).map((question) => `${question.question}: ${question.error}`);
    const message = refused.length > 0 ? `${ask.prompt}\n\nAnswer again: ${refused.join('; ')}` : ask.prompt;
    const call = ask.toolCallId === undefined ? {} : { toolCallId: ask.toolCallId };
    const interrupt: Interrupt = approval
      ? { id, reason: 'tool_call', message, ...call, responseSchema: APPROVAL_SCHEMA }
      : { id, reason: 'input_required', message, ...call, responseSchema: ask.responseSchema };
    return {
      interrupt: expiresAt === undefined ? interrupt : { ...interrupt, expiresAt },
      kind: 'call',
      questionnaireId: ask.questionnaireId,
      accepted: ask.accepted,
      reasks: ask.reasks,
      ...(approval ? { approvalOptions: ask.questions[0]?.options ?? [] } : {}),
    };
  }
}
