/** CUSTOM event a triggered guardrail leaves in events.jsonl and on the event stream. */
export const GUARDRAIL_EVENT = 'workflow.guardrail';

/** What one trigger records: the validator as the pack declares it, what it found and what it did. */
export interface GuardrailEventValue {
  /** The workflow state whose prompt declares it. */
  state: string;
  validator: string;
  explanation: string;
  action: 'truncated' | 'replaced';
}
