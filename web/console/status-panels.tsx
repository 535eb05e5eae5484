import { useState } from 'react';
import { type CommandSaid, CommandSaidLine } from './command-said.js';
import type { AdminReport } from './api.js';

interface AskState {
  text: string;
  active: boolean;
  outcome?: string;
  reason?: string;
  evaluatedTurns: number;
}

/** userAsk: what the person asked, tracked across turns, and how the last turn was judged; `/ask` to set or clear it. */
export function AskPanel({ ask, onCommand }: { ask: unknown; onCommand(command: string): Promise<{ lines: string[]; isError: boolean }> }) {
  const [draft, setDraft] = useState('');
  const [said, setSaid] = useState<CommandSaid>();
  if (ask === undefined) return null;
  const state = ask as AskState | null;
  const command = async (text: string) => setSaid(await onCommand(text));
  return (
    <section className="panel ask" aria-labelledby="ask-heading">
      <h2 id="ask-heading">{state?.active ? `? ask (${state.evaluatedTurns})` : 'Ask'}</h2>
      {state ? (
        <>
          <p className="ask-text">{state.text}</p>
          {state.outcome ? (
            <p className={`verdict verdict-${state.outcome}`}>
              <span className="badge">{state.outcome.replace('_', ' ')}</span> {state.reason}
            </p>
          ) : (
            <p className="note">Not judged yet.</p>
          )}
        </>
      ) : (
        <p className="note">No request tracked yet: your next message becomes it.</p>
      )}
      <form
        className="ask-edit"
        onSubmit={async (event) => {
          event.preventDefault();
          if (draft.trim() === '') return;
          await command(`/ask ${draft.trim()}`);
          setDraft('');
        }}
      >
        <label htmlFor="ask-input" className="visually-hidden">
          Set the tracked request
        </label>
        <input id="ask-input" placeholder="Set the ask…" value={draft} onChange={(event) => setDraft(event.target.value)} />
        <button type="submit">Set</button>
        <button type="button" onClick={() => command('/ask clear')} disabled={!state?.active}>
          Clear
        </button>
      </form>
      <CommandSaidLine said={said} />
    </section>
  );
}

interface WorkflowState {
  state: string;
  complete: boolean;
  stopped?: string;
  visits?: Record<string, number>;
}

/** The workflow's current state, the visits per state, and the round budget the admin report gives. */
export function WorkflowPanel({ workflow, admin }: { workflow: unknown; admin?: AdminReport }) {
  if (workflow === undefined) return null;
  const state = workflow as WorkflowState;
  const budget = admin?.augments.find((section) => section.type === 'workflow')?.rows?.find((row) => /budget/i.test(row.label));
  return (
    <section className="panel workflow" aria-labelledby="workflow-heading">
      <h2 id="workflow-heading">Workflow</h2>
      <p>
        {'State: '}
        <strong>{state.state}</strong>
        {state.stopped !== undefined ? ` (stopped: ${state.stopped})` : state.complete ? ' (complete)' : ''}
      </p>
      {state.visits ? (
        <ul className="visits">
          {Object.entries(state.visits).map(([name, count]) => (
            <li key={name}>{`${name}: ${count} visit${count === 1 ? '' : 's'}`}</li>
          ))}
        </ul>
      ) : null}
      {budget ? <p className="note">{`Budget: ${budget.value}`}</p> : null}
    </section>
  );
}

/** What `auggy admin` reports: the agent, its model, each augment with its tools and settings. */
export function CapabilitiesPanel({ admin }: { admin?: AdminReport }) {
  if (!admin) return null;
  return (
    <section className="panel capabilities" aria-labelledby="capabilities-heading">
      <details>
        <summary>
          <h2 id="capabilities-heading">Capabilities</h2>
        </summary>
        <p>
          <strong>{admin.agent.displayName}</strong> {`· ${admin.agent.model}`}
        </p>
        {admin.augments.map((section) => (
          <div key={section.id} className="augment">
            <h3>{section.id === section.type ? section.type : `${section.id} (${section.type})`}</h3>
            {section.behavior ? <p className="note">{section.behavior}</p> : null}
            <dl>
              {(section.rows ?? []).map((row, index) => (
                <div key={`${section.id}-${index}`} className="row">
                  <dt>{row.label}</dt>
                  <dd>{row.value}</dd>
                </div>
              ))}
            </dl>
          </div>
        ))}
      </details>
    </section>
  );
}
