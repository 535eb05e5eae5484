import { useState } from 'react';
import { type CommandSaid, CommandSaidLine } from './command-said.js';
import type { ContextReading } from './api.js';

/** `41k`, `200k`, `1.2M`, as the chat's status line says tokens. */
function shortTokens(count: number): string {
  if (count >= 1_000_000) return `${(count / 1_000_000).toFixed(1).replace(/\.0$/, '')}M`;
  if (count >= 10_000) return `${Math.round(count / 1000)}k`;
  if (count >= 1000) return `${(count / 1000).toFixed(1).replace(/\.0$/, '')}k`;
  return String(count);
}

/**
 * The context meter (`context.usage`, the thread's reading after a reload) and `/compact`, as
 * the chat has them: how full the model's window is, and a way to free it now.
 */
export function ContextPanel({
  reading,
  busy,
  onCommand,
}: {
  reading?: ContextReading;
  busy: boolean;
  onCommand(command: string): Promise<{ lines: string[]; isError: boolean }>;
}) {
  const [said, setSaid] = useState<CommandSaid>();
  const [compacting, setCompacting] = useState(false);
  if (!reading || reading.used === 0) return null;
  const { used, limit } = reading;
  const percent = limit === undefined ? undefined : Math.round((100 * used) / limit);
  return (
    <section className="panel context" aria-labelledby="context-heading">
      <h2 id="context-heading">Context</h2>
      <p>
        {limit === undefined ? `${shortTokens(used)} tokens` : `${percent}% of ${shortTokens(limit)} tokens`}
        {reading.measured ? '' : ' (estimated)'}
      </p>
      {limit !== undefined ? <meter aria-label="Context used" min={0} max={limit} value={Math.min(used, limit)} high={limit * 0.8} /> : null}
      <button
        type="button"
        disabled={busy || compacting}
        onClick={async () => {
          setCompacting(true);
          setSaid(await onCommand('/compact'));
          setCompacting(false);
        }}
      >
        {compacting ? 'Compacting…' : 'Compact now'}
      </button>
      <CommandSaidLine said={said} />
    </section>
  );
}
