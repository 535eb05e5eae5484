/**
 * A question that outlives its run, as AG-UI 1.0 names it (`RUN_FINISHED.outcome.interrupts`):
 * the run stops, the person answers later, and the run that brings the answer carries the turn
 * on. The kernel says what is asked; a host decides whether it can hold the question open.
 */
export interface Interrupt {
  /** Unique in the thread and stable: the same question keeps its id until it is answered. */
  id: string;
  /** `input_required` for a question or questionnaire, `tool_call` for an approval. */
  reason: 'input_required' | 'tool_call';
  message: string;
  /** The call that waits on the answer (request_input's own call for a plain question). */
  toolCallId?: string;
  /** A JSON Schema of the answer, so a web app can draw one question per field. */
  responseSchema?: Record<string, unknown>;
  /** After this instant the question is no longer answered: the next run treats it as cancelled. */
  expiresAt?: string;
}
