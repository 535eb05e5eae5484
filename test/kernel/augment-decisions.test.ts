import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Augment, ClosingRound, FinishedTurn, TurnHookContext } from '../../src/kernel/augment.js';
import type { TurnOutcome } from '../../src/kernel/events.js';
import { NOBODY } from '../../src/kernel/person.js';
import { decideAfterBatch, decideAfterTurn, settingsOfRound, toolsOfRound } from '../../src/kernel/augment-decisions.js';
import type { KernelTool } from '../../src/kernel/tool.js';

const tool = (name: string, description = name): KernelTool => ({
  name,
  description,
  inputSchema: z.object({}),
  run: async () => ({ content: '' }),
});

const hookContext: TurnHookContext = { person: NOBODY, signal: new AbortController().signal, emit: () => undefined };
const finished: FinishedTurn = { status: 'completed', text: 'done', transcript: [] };

describe('how augments come to one answer', () => {
  it("a client's tool that shares a name with the agent's is left out, the others sit beside the agent's", () => {
    const augments: Augment[] = [
      { id: 'a', tools: () => [tool('search', 'mine')] },
      { id: 'b', tools: () => [tool('write')] },
    ];
    const tools = toolsOfRound(augments, [tool('search', 'client'), tool('browse')]);
    expect(tools.map((t) => `${t.name}:${t.description}`)).toEqual(['search:mine', 'write:write', 'browse:browse']);
  });

  it('each filter narrows what every augment offered, in order', () => {
    const augments: Augment[] = [
      { id: 'a', tools: () => [tool('one'), tool('two'), tool('three')] },
      { id: 'state', filterTools: (tools) => tools.filter((t) => t.name !== 'two') },
      { id: 'other', filterTools: (tools) => tools.filter((t) => t.name !== 'three') },
    ];
    expect(toolsOfRound(augments, []).map((t) => t.name)).toEqual(['one']);
  });

  it('the first augment that sets call settings has them', () => {
    const augments: Augment[] = [{ id: 'a' }, { id: 'b', callSettings: () => ({ temperature: 0.1 }) }, { id: 'c', callSettings: () => ({ temperature: 0.9 }) }];
    expect(settingsOfRound(augments)).toEqual({ temperature: 0.1 });
    expect(settingsOfRound([{ id: 'a' }])).toBeUndefined();
  });

  it('after a batch, each field is decided by the first augment that decides it, and every augment sees the batch', async () => {
    const seen: string[] = [];
    const stopHere: TurnOutcome = { status: 'input-required', message: 'stop here' };
    const notThis: TurnOutcome = { status: 'completed' };
    const closing: ClosingRound = { outcome: { status: 'completed' }, fallback: 'Done.' };
    const augments: Augment[] = [
      { id: 'a', afterBatch: () => (seen.push('a'), { terminate: stopHere }) },
      { id: 'b', afterBatch: () => (seen.push('b'), { terminate: notThis, close: closing }) },
    ];
    const decision = await decideAfterBatch(augments, [], hookContext);
    expect(decision).toEqual({ terminate: stopHere, close: closing });
    expect(seen).toEqual(['a', 'b']);
    expect(await decideAfterBatch([{ id: 'quiet' }], [], hookContext)).toBeUndefined();
  });

  it('after a turn, the first continuation and the first release win, each named for its augment', async () => {
    const augments: Augment[] = [
      { id: 'watcher', afterTurn: () => undefined },
      { id: 'goal', afterTurn: () => ({ continueWith: 'keep going' }) },
      { id: 'late', afterTurn: () => ({ continueWith: 'ignored', release: { status: 'budget-exhausted', message: 'out of time' } }) },
    ];
    expect(await decideAfterTurn(augments, finished)).toEqual({
      continuation: { directive: 'keep going', by: 'goal' },
      release: { status: 'budget-exhausted', message: 'out of time', by: 'late' },
    });
  });
});
