import { Markdown } from './markdown.js';
import type { TranscriptItem } from './transcript.js';

function shortArgs(args: string): string {
  const flat = args.replace(/\s+/g, ' ').trim();
  return flat.length > 80 ? `${flat.slice(0, 79)}…` : flat;
}

/** One line per tool call; its arguments in full and its result on demand. */
function ToolLine({ item }: { item: Extract<TranscriptItem, { kind: 'tool' }> }) {
  return (
    <details className="tool-line">
      <summary>
        <span className="tool-name">{item.name}</span> <span className="tool-args">{shortArgs(item.args)}</span>{' '}
        <span className="tool-state">{item.result === undefined ? 'running' : 'done'}</span>
      </summary>
      <div className="tool-detail">
        <p className="label">Arguments</p>
        <pre>{item.args || '{}'}</pre>
        <p className="label">Result</p>
        <pre>{item.result ?? 'no result yet'}</pre>
      </div>
    </details>
  );
}

function Item({ item }: { item: TranscriptItem }) {
  switch (item.kind) {
    case 'user':
      return (
        <div className="message user">
          <p className="who">You</p>
          <p className="user-text">{item.text}</p>
        </div>
      );
    case 'assistant':
      return (
        <div className={`message assistant${item.question ? ' question' : ''}`}>
          <p className="who">{item.question ? <span className="badge question-badge">Question</span> : 'Agent'}</p>
          <Markdown text={item.text} />
        </div>
      );
    case 'tool':
      return <ToolLine item={item} />;
    case 'system':
      return <p className="system-line">{item.text}</p>;
    case 'verdict':
      return (
        <p className={`verdict verdict-${item.outcome}`}>
          <span className="badge">{`ask: ${item.outcome.replace('_', ' ')}`}</span> {item.reason}
        </p>
      );
    case 'end':
      return <p className={`turn-end turn-${item.status}`}>{item.message ?? item.status}</p>;
  }
}

/** `formShown`: a questionnaire or approval is drawn as a form below, so its narration since the person's last line is not repeated. */
export function TranscriptView({ items, formShown }: { items: readonly TranscriptItem[]; formShown: boolean }) {
  const lastUser = items.findLastIndex((item) => item.kind === 'user');
  const shown = items.filter((item, index) => !(formShown && index > lastUser && item.kind === 'assistant' && item.narration));
  return (
    <ol className="transcript" aria-label="Conversation">
      {shown.map((item) => (
        <li key={item.id}>
          <Item item={item} />
        </li>
      ))}
    </ol>
  );
}
