import { useEffect, useState } from 'react';

/** Who holds the turn, always in view: the agent (with the time it has taken) or the person. */
export function TurnStatus({ runningSince, waiting, onStop }: { runningSince?: number; waiting: boolean; onStop(): void }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (runningSince === undefined) return;
    const timer = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(timer);
  }, [runningSince]);
  if (runningSince !== undefined) {
    const seconds = Math.max(0, Math.floor((now - runningSince) / 1000));
    return (
      <div className="turn-status working" role="status">
        <span className="spinner" aria-hidden="true" />
        <span>{`The agent is working… ${seconds}s`}</span>
        <button type="button" onClick={onStop} aria-keyshortcuts="Escape">
          Stop (Esc)
        </button>
      </div>
    );
  }
  return (
    <div className={`turn-status ${waiting ? 'waiting' : 'idle'}`} role="status">
      {waiting ? 'The agent is waiting for your answer.' : 'Your turn.'}
    </div>
  );
}
