interface GoalState {
  condition: string;
  status: string;
  turns: number;
  reason: string | null;
  note?: string;
}

const STATUS: Record<string, string> = {
  active: 'working on it',
  waiting: 'waiting for your answer',
  paused: 'paused',
  achieved: 'met',
  'budget-exhausted': 'out of budget',
};

/** The goal augment's condition and where it stands (its snapshot in the thread's state), when the thread has one. */
export function GoalPanel({ goal }: { goal: unknown }) {
  if (typeof goal !== 'object' || goal === null) return null;
  const state = goal as GoalState;
  return (
    <section className="panel goal" aria-labelledby="goal-heading">
      <h2 id="goal-heading">Goal</h2>
      <p className="goal-condition">{state.condition}</p>
      <p>
        <span className={`badge goal-${state.status}`}>{STATUS[state.status] ?? state.status}</span>
        {` after ${state.turns} turn${state.turns === 1 ? '' : 's'}`}
      </p>
      {state.note ? <p className="note">{state.note}</p> : state.reason ? <p className="note">{state.reason}</p> : null}
    </section>
  );
}
