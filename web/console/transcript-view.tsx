import { useEffect, useState } from 'react';
import { Markdown } from './markdown.js';
import type { Attachment, TranscriptItem } from './transcript.js';

/** Fetches an attachment's bytes by id (behind the token, so never a bare <img src>). */
export type LoadAttachment = (id: string) => Promise<Blob>;

function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** An image the person sent: a thumbnail once its bytes arrived, its name and size always. */
function AttachmentChip({ attachment, load }: { attachment: Attachment; load?: LoadAttachment }) {
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    if (load === undefined) return;
    let made: string | undefined;
    let gone = false;
    load(attachment.id)
      .then((blob) => {
        if (gone) return;
        made = URL.createObjectURL(blob);
        setUrl(made);
      })
      // The chip still names the image when its bytes cannot be had (a state removed by hand).
      .catch(() => undefined);
    return () => {
      gone = true;
      if (made !== undefined) URL.revokeObjectURL(made);
    };
  }, [attachment.id, load]);
  const name = attachment.name ?? 'image';
  return (
    <figure className="attachment">
      {url !== undefined ? <img src={url} alt={name} className="attachment-thumb" /> : null}
      <figcaption>{`${name} · ${sizeText(attachment.size)}`}</figcaption>
    </figure>
  );
}

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

function Item({ item, load }: { item: TranscriptItem; load?: LoadAttachment }) {
  switch (item.kind) {
    case 'user':
      return (
        <div className="message user">
          <p className="who">You</p>
          <p className="user-text">{item.text}</p>
          {item.attachments?.map((attachment) => (
            <AttachmentChip key={attachment.id} attachment={attachment} load={load} />
          ))}
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
export function TranscriptView({ items, formShown, load }: { items: readonly TranscriptItem[]; formShown: boolean; load?: LoadAttachment }) {
  const lastUser = items.findLastIndex((item) => item.kind === 'user');
  const shown = items.filter((item, index) => !(formShown && index > lastUser && item.kind === 'assistant' && item.narration));
  return (
    <ol className="transcript" aria-label="Conversation">
      {shown.map((item) => (
        <li key={item.id}>
          <Item item={item} load={load} />
        </li>
      ))}
    </ol>
  );
}
