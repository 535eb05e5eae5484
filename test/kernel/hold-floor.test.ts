import { describe, expect, it } from 'vitest';
import type { ConversationTurn } from '../../src/kernel/conversation.js';
import { holdFloor } from '../../src/kernel/hold-floor.js';

const turn = (fields: Partial<ConversationTurn>): ConversationTurn => ({
  runId: 'run',
  status: 'completed',
  text: '',
  toolCalls: [],
  usage: { inputTokens: 0, outputTokens: 0 },
  finishReason: 'stop',
  ...fields,
});

/** A conversation whose continued turns are the given ones, in order. */
function continuing(...next: ConversationTurn[]) {
  const directives: string[] = [];
  return {
    directives,
    conversation: {
      continueTurn: async (continuation: { directive: string }) => {
        directives.push(continuation.directive);
        const following = next.shift();
        if (!following) throw new Error('no more turns');
        return following;
      },
    },
  };
}

describe('a run that holds the floor over many turns', () => {
  it('follows each continuation and tells the run as one: every reply, call and token, the release as its end', async () => {
    const call = (id: string) => ({ id, name: 'work', input: {}, content: 'ok', isError: false });
    const { conversation, directives } = continuing(
      turn({
        runId: 'r2',
        text: 'second',
        toolCalls: [call('b')],
        usage: { inputTokens: 20, outputTokens: 2 },
        cost: 0.2,
        continuation: { directive: 'again', by: 'goal' },
      }),
      turn({
        runId: 'r3',
        text: '',
        usage: { inputTokens: 30, outputTokens: 3 },
        cost: 0.3,
        release: { status: 'budget-exhausted', message: 'the goal ran out of turns', by: 'goal' },
      }),
    );
    const first = turn({
      runId: 'r1',
      text: 'first',
      toolCalls: [call('a')],
      usage: { inputTokens: 10, outputTokens: 1 },
      cost: 0.1,
      continuation: { directive: 'go on', by: 'goal' },
    });
    const floor = await holdFloor(conversation, async () => first);
    expect(directives).toEqual(['go on', 'again']);
    expect(floor.turns.map((one) => one.runId)).toEqual(['r1', 'r2', 'r3']);
    expect(floor.whole).toMatchObject({
      runId: 'r3',
      status: 'budget-exhausted',
      message: 'the goal ran out of turns',
      code: 'budget_exhausted',
      text: 'first\n\nsecond',
      usage: { inputTokens: 60, outputTokens: 6 },
    });
    expect(floor.whole.toolCalls.map((one) => one.id)).toEqual(['a', 'b']);
    expect(floor.whole.cost).toBeCloseTo(0.6);
  });

  it('a run with one unpriced turn has no cost, and a lone turn ends as itself', async () => {
    const { conversation } = continuing(turn({ runId: 'r2', status: 'failed', message: 'the provider refused', code: 'provider_error' }));
    const floor = await holdFloor(conversation, async () => turn({ cost: 0.1, continuation: { directive: 'go on', by: 'goal' } }));
    expect(floor.whole.cost).toBeUndefined();
    expect(floor.whole).toMatchObject({ status: 'failed', message: 'the provider refused', code: 'provider_error' });
  });
});
