import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lookupTool, packText, runTurn, savedState, startWorkflow, stateOrder, transition, workflowFolder } from './harness.js';
import { folderOf } from '../../helpers/session-folder.js';

/** Two states that keep the floor and bounce between each other: only a limit stops them. */
function pingPong(budget: Record<string, number>, extra: Record<string, Record<string, unknown>> = {}) {
  return packText({
    entry: 'ping',
    states: {
      ping: { prompt_task: 'ping', control: 'agent', on_event: { Hit: 'pong' }, ...extra.ping },
      pong: { prompt_task: 'pong', control: 'agent', on_event: { Hit: 'ping' }, ...extra.pong },
      ...(extra.fallback ? { fallback: extra.fallback } : {}),
    },
    prompts: { ping: { system_template: 'Ping.', tools: ['lookup'] } },
    budget,
  });
}

const hits = (n: number) => Array.from({ length: n }, () => ({ toolCalls: [transition('Hit')] }));

describe('workflow engine.budget', () => {
  it('max_total_visits: the move that would exceed it ends the turn budget-exhausted, unmade', async () => {
    const h = await startWorkflow(workflowFolder(pingPong({ max_total_visits: 3 })));
    const { result, calls } = await runTurn(h, [...hits(5), { text: 'never' }]);
    expect(calls).toHaveLength(3);
    expect(result.status).toBe('budget-exhausted');
    expect(result.message).toMatch(/max_total_visits \(3\)/);
    expect(stateOrder(h, 'ping')).toEqual(['ping', 'pong', 'ping']);
    expect(savedState(h)).toMatchObject({ state: 'ping', stopped: expect.stringContaining('max_total_visits') });
    expect(h.events.some((e) => e.type === 'CUSTOM' && e.name === 'workflow.stopped')).toBe(true);
  });

  it('max_tool_calls trips when the count reaches the limit: the call that reaches it is the last', async () => {
    const h = await startWorkflow(workflowFolder(pingPong({ max_tool_calls: 2 })));
    const lookup = (key: string) => ({ toolCalls: [{ name: 'lookup', args: { key } }] });
    const { result, calls } = await runTurn(h, [lookup('a'), lookup('b'), lookup('c'), { text: 'never' }], { tools: [lookupTool()] });
    expect(calls).toHaveLength(2);
    expect(result.status).toBe('budget-exhausted');
    expect(result.message).toMatch(/max_tool_calls \(2\).*2 tool calls/);
    expect(savedState(h)).toMatchObject({ toolCalls: 2, state: 'ping' });
  });

  it("max_tool_calls counts transitions too: reaching the limit in a batch refuses that batch's move", async () => {
    const h = await startWorkflow(workflowFolder(pingPong({ max_tool_calls: 1 })));
    const { result, calls } = await runTurn(h, [...hits(2), { text: 'never' }]);
    expect(calls).toHaveLength(1);
    expect(result.status).toBe('budget-exhausted');
    expect(savedState(h)).toMatchObject({ toolCalls: 1, state: 'ping', transitions: [] });
  });

  it('max_wall_time_sec trips when the elapsed seconds reach the limit, not one second later', async () => {
    const dir = workflowFolder(pingPong({ max_wall_time_sec: 60 }));
    const first = await startWorkflow(dir);
    const saved = savedState(first);
    writeFileSync(join(folderOf(first.session), 'workflow.json'), JSON.stringify({ ...saved, startedAt: new Date(Date.now() - 60_000).toISOString() }));
    const h = await startWorkflow(dir, { sessionId: first.session.id });
    const { result } = await runTurn(h, [...hits(2), { text: 'never' }]);
    expect(result.status).toBe('budget-exhausted');
    expect(result.message).toMatch(/max_wall_time_sec \(60\) is used up: the workflow has run 6\ds/);
  });

  it('max_wall_time_sec: a workflow started too long ago stops at its next move', async () => {
    const dir = workflowFolder(pingPong({ max_wall_time_sec: 60 }));
    const first = await startWorkflow(dir);
    const saved = savedState(first);
    writeFileSync(join(folderOf(first.session), 'workflow.json'), JSON.stringify({ ...saved, startedAt: new Date(Date.now() - 120_000).toISOString() }));
    const h = await startWorkflow(dir, { sessionId: first.session.id });
    const { result, calls } = await runTurn(h, [...hits(2), { text: 'never' }]);
    expect(calls).toHaveLength(1);
    expect(result.status).toBe('budget-exhausted');
    expect(result.message).toMatch(/max_wall_time_sec \(60\)/);
    expect(savedState(h)).toMatchObject({ state: 'ping', transitions: [] });
  });

  it('the budget is checked before max_visits: no redirect when both trip on the same move', async () => {
    const h = await startWorkflow(
      workflowFolder(
        pingPong({ max_total_visits: 3 }, { pong: { max_visits: 1, on_max_visits: 'fallback' }, fallback: { prompt_task: 'ping', terminal: true } }),
      ),
    );
    // ping(1) → pong(2) → ping(3) → pong: the total would be 4 > 3, and pong is full (1/1).
    const { result } = await runTurn(h, [...hits(3), { text: 'never' }]);
    expect(result.status).toBe('budget-exhausted');
    expect(result.message).toMatch(/max_total_visits/);
    expect(stateOrder(h, 'ping')).toEqual(['ping', 'pong', 'ping']);
    expect(savedState(h)).toMatchObject({ state: 'ping' });
  });

  it('no engine.budget means no limit but max_visits and the one round cap of the turn', async () => {
    const h = await startWorkflow(workflowFolder(pingPong({})));
    const { result, calls } = await runTurn(h, [...hits(12), { text: 'Stopping here.' }], { maxInferenceLoops: 13 });
    expect(calls).toHaveLength(13);
    expect(result).toMatchObject({ status: 'completed', text: 'Stopping here.' });
  });
});
