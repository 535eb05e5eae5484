import type { ThreadSummary } from './api.js';

const ENDED: Record<string, string> = {
  completed: 'completed',
  'input-required': 'waiting for your answer',
  failed: 'failed',
  canceled: 'stopped',
  'budget-exhausted': 'out of rounds',
  interrupted: 'interrupted',
};

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 60 ? `${flat.slice(0, 59)}…` : flat;
}

/** The agent's threads, newest first; the open one marked. */
export function ThreadsList({ threads, current, onOpen }: { threads: readonly ThreadSummary[]; current?: string; onOpen(threadId: string | undefined): void }) {
  return (
    <nav className="threads" aria-label="Threads">
      <button type="button" className="primary new-thread" onClick={() => onOpen(undefined)}>
        New thread
      </button>
      <ol>
        {threads.map((thread) => (
          <li key={thread.threadId}>
            <button
              type="button"
              className={`thread${thread.threadId === current ? ' current' : ''}`}
              aria-current={thread.threadId === current ? 'page' : undefined}
              onClick={() => onOpen(thread.threadId)}
            >
              <span className="thread-title">{oneLine(thread.firstMessage) || thread.threadId}</span>
              <span className="thread-meta">
                <time dateTime={thread.updatedAt}>{new Date(thread.updatedAt).toLocaleString()}</time>
                {` · ${ENDED[thread.ended] ?? thread.ended}`}
              </span>
            </button>
          </li>
        ))}
      </ol>
      {threads.length === 0 ? <p className="note">No threads yet.</p> : null}
    </nav>
  );
}
