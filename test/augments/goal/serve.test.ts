import { afterEach, describe, expect, it } from 'vitest';
import { HttpAgent } from '@ag-ui/client';
import { checkRun, clientRun, interruptsOf } from '../../helpers/interrupt-agent.js';
import { startServe, type ServeProcess } from '../../helpers/serve-process.js';
import { scriptedGoalFolder } from './scripted-goal.js';

let serve: ServeProcess | undefined;
afterEach(async () => {
  serve?.signal('SIGKILL');
  await serve?.exited;
  serve = undefined;
});

function verdicts(events: readonly { type: string; name?: string; value?: unknown }[]): unknown[] {
  return events.flatMap((event) => (event.type === 'CUSTOM' && event.name === 'goal.verdict' ? [event.value] : []));
}

describe('goal over AG-UI (auggy serve)', () => {
  it('one run holds the whole loop: three turns, each verdict a CUSTOM event, one RUN_FINISHED', async () => {
    serve = await startServe(scriptedGoalFolder());
    const agent = new HttpAgent({ url: `${serve.url}/agent/run` });
    const run = await clientRun(agent, { text: '/goal do three steps' });
    expect(run.failure).toBeUndefined();
    checkRun(run, agent.threadId);
    expect(run.events.filter((event) => event.type === 'RUN_STARTED')).toHaveLength(1);
    expect(verdicts(run.events)).toEqual([
      expect.objectContaining({ met: false, status: 'active', turns: 1, reason: 'Step one is done; two and three remain.' }),
      expect.objectContaining({ met: false, status: 'active', turns: 2, reason: 'Step three remains.' }),
      expect.objectContaining({ met: true, status: 'achieved', turns: 3, reason: 'All three steps are done.' }),
    ]);
    const said = run.events.flatMap((event) => (event.type === 'TEXT_MESSAGE_CONTENT' && 'delta' in event ? [String(event.delta)] : [])).join('');
    expect(said).toContain('Did step one.');
    expect(said).toContain('Did step three.');
    expect(run.finished).toHaveLength(1);
    expect(run.finished[0].outcome).not.toBe('interrupt');

    // Read back as a page reads a thread: the goal's directives are lines of the goal's, not the person's words.
    const thread = (await (await fetch(`${serve.url}/agent/thread?threadId=${agent.threadId}`)).json()) as {
      events: { type: string; role?: string; delta?: string; name?: string; value?: { text?: string } }[];
    };
    const userIds = new Set(
      thread.events.flatMap((event) => (event.type === 'TEXT_MESSAGE_START' && event.role === 'user' ? [(event as { messageId?: string }).messageId] : [])),
    );
    const userTexts = thread.events.flatMap((event) =>
      event.type === 'TEXT_MESSAGE_CONTENT' && userIds.has((event as { messageId?: string }).messageId) ? [String(event.delta)] : [],
    );
    expect(userTexts).toEqual(['do three steps']);
    const lines = thread.events.flatMap((event) => (event.type === 'CUSTOM' && event.name === 'auggy.system' ? [event.value?.text] : []));
    expect(lines.filter((line) => line?.startsWith('↻ goal'))).toHaveLength(2);
  });

  it('a questionnaire in turn two ends the run with an interrupt; the resume that answers it carries the goal to its end', async () => {
    serve = await startServe(scriptedGoalFolder());
    const agent = new HttpAgent({ url: `${serve.url}/agent/run` });
    const asked = await clientRun(agent, { text: '/goal deploy' });
    checkRun(asked, agent.threadId);
    const [interrupt] = interruptsOf(asked);
    expect(verdicts(asked.events)).toEqual([
      expect.objectContaining({ met: false, turns: 1 }),
      expect.objectContaining({ status: 'waiting', turnStatus: 'input-required' }),
    ]);
    const done = await clientRun(agent, { resume: [{ interruptId: interrupt.id, status: 'resolved', payload: { env: 'staging' } }] });
    expect(done.failure).toBeUndefined();
    checkRun(done, agent.threadId);
    expect(verdicts(done.events)).toEqual([expect.objectContaining({ met: true, status: 'achieved', turns: 2, reason: 'Deployed to staging.' })]);
  });
});
