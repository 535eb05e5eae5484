import { useState } from 'react';
import type { Interrupt } from './api.js';
import type { ResumeEntry } from './use-console.js';

interface FieldSchema {
  type?: string;
  title?: string;
  description?: string;
  enum?: string[];
  default?: unknown;
}

/** The reason the server gave for refusing the field's last answer, if it did. */
export function refusalOf(field: FieldSchema): string | undefined {
  return /\(the last answer was refused: (.*)\)$/s.exec(field.description ?? '')?.[1];
}

function fieldsOf(interrupt: Interrupt): [string, FieldSchema][] {
  const schema = interrupt.responseSchema as { type?: string; properties?: Record<string, FieldSchema> } | undefined;
  return schema?.type === 'object' && schema.properties ? Object.entries(schema.properties) : [];
}

/** request_input's question is answered in the message box; questionnaires and approvals here. */
export function isReplyQuestion(interrupt: Interrupt): boolean {
  return interrupt.reason !== 'tool_call' && fieldsOf(interrupt).length === 0;
}

const defaultText = (value: unknown) => (Array.isArray(value) ? value.join(', ') : String(value));

/** A typed answer as the server reads it: lists split on commas, yes/no as booleans, the rest as typed. */
function payloadValue(field: FieldSchema, text: string): unknown {
  if (field.type === 'array')
    return text
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean);
  if (field.type === 'boolean') return text === 'yes';
  return text;
}

function messageWithoutRetry(message: string | undefined): string {
  return (message ?? '').replace(/\n\nAnswer again: [\s\S]*$/, '');
}

/** One question per field: choices and yes/no as buttons, a default one click away, lists comma-separated. */
export function QuestionnaireForm({
  interrupt,
  typed,
  onAnswer,
}: {
  interrupt: Interrupt;
  /** What the person typed last time, so a refused answer comes back on its field beside the reason. */
  typed: Readonly<Record<string, string>>;
  onAnswer(entry: ResumeEntry, shown: string, typed: Record<string, string>): void;
}) {
  const fields = fieldsOf(interrupt);
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(fields.filter(([name, field]) => refusalOf(field) !== undefined && typed[name] !== undefined).map(([name]) => [name, typed[name]])),
  );
  const set = (name: string, text: string) => setValues((current) => ({ ...current, [name]: text }));
  const submit = () => {
    const payload = Object.fromEntries(
      fields.filter(([name]) => values[name] !== undefined && values[name] !== '').map(([name, field]) => [name, payloadValue(field, values[name])]),
    );
    const shown = fields.map(([name, field]) => `${field.title ?? name} ${values[name] || '(default)'}`).join('; ');
    onAnswer({ interruptId: interrupt.id, status: 'resolved', payload }, shown, values);
  };
  return (
    <form
      className="interrupt questionnaire"
      aria-label="Questions from the agent"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <p className="interrupt-title">
        <span className="badge question-badge">Question</span> {messageWithoutRetry(interrupt.message)}
      </p>
      {fields.map(([name, field]) => {
        const inputId = `${interrupt.id}-${name}`;
        const refusal = refusalOf(field);
        const choices = field.enum ?? (field.type === 'boolean' ? ['yes', 'no'] : undefined);
        return (
          <div className={`field${refusal ? ' refused' : ''}`} key={name} data-field={name}>
            <label htmlFor={inputId} id={`${inputId}-label`}>
              {field.title ?? name}
              {field.type === 'array' ? ' (comma-separated)' : ''}
            </label>
            {choices ? (
              <div className="choices" role="radiogroup" aria-labelledby={`${inputId}-label`} id={inputId}>
                {choices.map((choice) => (
                  // biome-ignore lint/a11y/useSemanticElements: a row of buttons reads better than radio inputs here, and says which is pressed
                  <button
                    type="button"
                    role="radio"
                    aria-checked={values[name] === choice}
                    key={choice}
                    className={values[name] === choice ? 'chosen' : ''}
                    onClick={() => set(name, choice)}
                  >
                    {choice}
                  </button>
                ))}
              </div>
            ) : (
              <input
                id={inputId}
                name={name}
                inputMode={field.type === 'integer' || field.type === 'number' ? 'decimal' : undefined}
                value={values[name] ?? ''}
                aria-invalid={refusal !== undefined}
                aria-describedby={refusal ? `${inputId}-refusal` : undefined}
                onChange={(event) => set(name, event.target.value)}
              />
            )}
            {field.default !== undefined ? (
              <button type="button" className="use-default" onClick={() => set(name, defaultText(field.default))}>
                {`Use default: ${defaultText(field.default)}`}
              </button>
            ) : null}
            {refusal ? (
              <p className="refusal" id={`${inputId}-refusal`} role="alert">
                {refusal}
              </p>
            ) : null}
          </div>
        );
      })}
      <div className="actions">
        <button type="submit" className="primary">
          Send answers
        </button>
        <button type="button" onClick={() => onAnswer({ interruptId: interrupt.id, status: 'cancelled' }, '(no answer)', {})}>
          Decline
        </button>
      </div>
    </form>
  );
}

/** `everything wants to run get-sum (why) with:\n  a: 2`, as the mcp augment asks. */
function approvalParts(message: string): { server: string; tool: string; why: string; args: string } | undefined {
  const match = /^(\S+) wants to run (\S+) \((.*?)\) with:\n([\s\S]*)$/.exec(message);
  return match ? { server: match[1], tool: match[2], why: match[3], args: match[4] } : undefined;
}

/** An MCP tool that needs the person's yes: server, tool and arguments, then Allow / Deny / Always for this thread. */
export function ApprovalCard({ interrupt, onAnswer }: { interrupt: Interrupt; onAnswer(entry: ResumeEntry, shown: string): void }) {
  const message = interrupt.message ?? '';
  const parts = approvalParts(message);
  const answer = (approved: boolean, always: boolean, shown: string) =>
    onAnswer({ interruptId: interrupt.id, status: 'resolved', payload: always ? { approved, always } : { approved } }, shown);
  return (
    <section className="interrupt approval" aria-label="Approval asked">
      <p className="interrupt-title">
        <span className="badge question-badge">Approval</span> The agent wants to run a tool.
      </p>
      {parts ? (
        <dl className="approval-facts">
          <dt>Server</dt>
          <dd>{parts.server}</dd>
          <dt>Tool</dt>
          <dd>{parts.tool}</dd>
          <dt>Why</dt>
          <dd>{parts.why}</dd>
          <dt>Arguments</dt>
          <dd>
            <pre>{parts.args}</pre>
          </dd>
        </dl>
      ) : (
        <pre>{message}</pre>
      )}
      <div className="actions">
        <button type="button" className="primary" onClick={() => answer(true, false, 'Allowed')}>
          Allow
        </button>
        <button type="button" onClick={() => answer(false, false, 'Denied')}>
          Deny
        </button>
        <button type="button" onClick={() => answer(true, true, 'Allowed for this thread')}>
          Always for this thread
        </button>
      </div>
    </section>
  );
}
