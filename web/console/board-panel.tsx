import { useEffect, useState } from 'react';

interface BoardLine {
  owner: 'agent' | 'person' | 'both';
  text: string;
  by?: string;
}

function boardOf(value: unknown): Record<string, BoardLine> | undefined {
  return typeof value === 'object' && value !== null ? (value as Record<string, BoardLine>) : undefined;
}

/** A line the person may write: theirs or shared. Saved on Enter or Save, also while the agent works. */
function PersonLine({ name, line, onWrite }: { name: string; line: BoardLine; onWrite(line: string, text: string): Promise<string | undefined> }) {
  const [draft, setDraft] = useState(line.text);
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState<string>();
  // A change from the agent or another page shows, unless the person is typing in this line.
  useEffect(() => {
    if (!editing) setDraft(line.text);
  }, [line.text, editing]);
  const id = `board-${name}`;
  return (
    <form
      className="board-line"
      data-line={name}
      onSubmit={async (event) => {
        event.preventDefault();
        const refused = await onWrite(name, draft);
        setError(refused);
        if (!refused) setEditing(false);
      }}
    >
      <label htmlFor={id}>
        {name} <span className="owner">{line.owner === 'both' ? 'shared' : 'yours'}</span>
      </label>
      <div className="board-edit">
        <input
          id={id}
          value={draft}
          onFocus={() => setEditing(true)}
          onChange={(event) => setDraft(event.target.value)}
          aria-describedby={error ? `${id}-error` : undefined}
        />
        <button type="submit">Save</button>
      </div>
      {error ? (
        <p className="refusal" id={`${id}-error`} role="alert">
          {error}
        </p>
      ) : null}
    </form>
  );
}

/** The agent's line: read-only, and trying to type says why. */
function AgentLine({ name, line }: { name: string; line: BoardLine }) {
  const [tried, setTried] = useState(false);
  const id = `board-${name}`;
  return (
    <div className="board-line agent-line" data-line={name}>
      <label htmlFor={id}>
        {name} <span className="owner">agent's</span>
      </label>
      <input id={id} value={line.text} readOnly onKeyDown={(event) => event.key.length === 1 && setTried(true)} aria-describedby={`${id}-note`} />
      <p className={tried ? 'refusal' : 'note'} id={`${id}-note`} role={tried ? 'alert' : undefined}>
        {tried ? `"${name}" belongs to the agent: you can read it, and only the agent writes it.` : 'Written by the agent.'}
      </p>
    </div>
  );
}

export function BoardPanel({ board, onWrite }: { board: unknown; onWrite(line: string, text: string): Promise<string | undefined> }) {
  const lines = boardOf(board);
  if (!lines) return null;
  return (
    <section className="panel board" aria-labelledby="board-heading">
      <h2 id="board-heading">Board</h2>
      {Object.entries(lines).map(([name, line]) =>
        line.owner === 'agent' ? <AgentLine key={name} name={name} line={line} /> : <PersonLine key={name} name={name} line={line} onWrite={onWrite} />,
      )}
    </section>
  );
}
