import { describe, expect, it } from 'vitest';
import type { ModelMessage } from '@ai-sdk/provider-utils';
import { renderTranscript } from '../../src/augments/render-transcript.js';
import { planCompaction } from '../../src/kernel/context/compaction-plan.js';
import { messageChars } from '../../src/kernel/context/context-meter.js';
import { summaryLines } from '../../src/kernel/context/summary-prompt.js';
import type { SessionEntry } from '../../src/session/entries.js';
import { transcriptWithTurns } from '../../src/session/transcript.js';

const at = '2026-12-03T06:00:00.000Z';

/** Two turns: the first calls a tool that answers `output`, the second is a short question. */
function twoTurns(output: Extract<ModelMessage, { role: 'tool' }>['content'][number] & { type: 'tool-result' }): SessionEntry[] {
  return [
    { kind: 'user', turnId: 't1', text: 'read the log', at },
    { kind: 'message', turnId: 't1', message: { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'read_log', input: {} }] } },
    { kind: 'message', turnId: 't1', message: { role: 'tool', content: [output] } },
    { kind: 'message', turnId: 't1', message: { role: 'assistant', content: [{ type: 'text', text: 'read it' }] } },
    { kind: 'user', turnId: 't2', text: 'what next?', at },
  ];
}

/** A compaction that pruned the first turn's tool output and summarised nothing. */
const pruningOfC1: SessionEntry = {
  kind: 'compaction',
  at,
  reason: 'auto',
  prunedCalls: ['c1'],
  keptFromTurn: 't2',
  replacedMessages: 0,
  tokensBefore: 1,
  tokensAfter: 1,
};

const plan = (entries: SessionEntry[]) =>
  planCompaction({ transcript: transcriptWithTurns(entries), system: 'sys', keep: 0, pruneTarget: 1_000_000, summarise: false });

describe('a tool output is read as text one way', () => {
  it('a tool whose own output opens like a pruning note is still pruned, and a pruned one is not pruned again', () => {
    const log = `[This output (3 characters) was the tool's own words] ${'line\n'.repeat(200)}`;
    const entries = twoTurns({ type: 'tool-result', toolCallId: 'c1', toolName: 'read_log', output: { type: 'text', value: log } });
    expect(plan(entries)).toMatchObject({ kind: 'prune', prunedCalls: ['c1'] });

    expect(plan([...entries, pruningOfC1])).toMatchObject({ kind: 'summary' });
  });

  it('a JSON output is measured, summarised and shown to an evaluator as its value, a refused call as refused', () => {
    const json = { type: 'tool-result' as const, toolCallId: 'c1', toolName: 'read_log', output: { type: 'json' as const, value: { lines: 3 } } };
    const { messages } = transcriptWithTurns(twoTurns(json));
    const toolMessage = messages[2];
    expect(messageChars(toolMessage)).toBe('{"lines":3}'.length);
    expect(summaryLines([toolMessage])).toEqual(['tool result: read_log: {"lines":3}']);
    expect(renderTranscript([toolMessage])).toBe('[tool result read_log] {"lines":3}');

    const denied: ModelMessage = {
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'deploy', output: { type: 'execution-denied', reason: 'not on Fridays' } }],
    };
    expect(summaryLines([denied])).toEqual(['tool result: deploy failed: denied: not on Fridays']);
    expect(renderTranscript([denied])).toBe('[tool result deploy, error] denied: not on Fridays');
  });

  it('a pruned JSON error stays an error in the note that takes its place', () => {
    const failed = {
      type: 'tool-result' as const,
      toolCallId: 'c1',
      toolName: 'read_log',
      output: { type: 'error-json' as const, value: { why: 'x'.repeat(500) } },
    };
    const { messages } = transcriptWithTurns([...twoTurns(failed), pruningOfC1]);
    const [part] = (messages[2] as Extract<ModelMessage, { role: 'tool' }>).content;
    expect(part).toMatchObject({ output: { type: 'error-text', value: expect.stringMatching(/^\[This output \(\d+ characters\) was pruned/) } });
  });
});
