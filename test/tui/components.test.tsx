import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render } from 'ink-testing-library';
import { CommandList } from '../../src/hosts/tui/command-list.js';
import { InputLine } from '../../src/hosts/tui/input-line.js';
import { WaitingHint } from '../../src/hosts/tui/waiting-hint.js';
import { QueuedMessages } from '../../src/hosts/tui/queued-messages.js';
import { emptyQueue, enqueue } from '../../src/hosts/tui/use-message-queue.js';
import { StatusLine } from '../../src/hosts/tui/status-line.js';
import { TranscriptItem } from '../../src/hosts/tui/transcript-item.js';
import { turnEndText } from '../../src/hosts/tui/transcript-rows/item-rows.js';
import type { ToolCallState } from '../../src/hosts/tui/display-items.js';
import { summarizeArgs, summarizeResult } from '../../src/hosts/tui/tool-summary.js';

afterEach(() => cleanup());

const QuestionView = ({ text }: { text: string }) => <TranscriptItem item={{ kind: 'question', id: 'q', text }} />;
const ToolCallLine = (tool: { name: string; args: string; result?: string; state: ToolCallState }) => (
  <TranscriptItem item={{ kind: 'tool', id: 't', ...tool }} />
);
const Header = (header: { title: string; model: string; sessionId: string; resumed: boolean }) => (
  <TranscriptItem item={{ kind: 'header', id: 'h', ...header }} />
);

/** Waits for a frame that satisfies `check` (renders are asynchronous), never a fixed sleep. */
async function frameWith(lastFrame: () => string | undefined, check: (frame: string) => boolean): Promise<string> {
  let frame = '';
  await vi.waitFor(
    () => {
      frame = lastFrame() ?? '';
      if (!check(frame)) throw new Error(`frame not there yet:\n${frame}`);
    },
    { timeout: 5000, interval: 20 },
  );
  return frame;
}

describe('StatusLine', () => {
  it('while a turn runs: a spinner, the elapsed seconds and how to cancel', async () => {
    const { lastFrame } = render(<StatusLine running startedAt={Date.now() - 3200} indicators={[]} />);
    const frame = await frameWith(lastFrame, (f) => f.includes('working'));
    expect(frame).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] working 3s · Esc to cancel/);
  });

  it('the elapsed seconds tick on their own', async () => {
    const { lastFrame } = render(<StatusLine running startedAt={Date.now() - 1900} indicators={[]} />);
    await frameWith(lastFrame, (f) => f.includes('working 2s'));
  });

  it('after a turn: its status alone, since the transcript above already says why a turn failed', () => {
    expect(render(<StatusLine running={false} lastTurn={{ status: 'completed' }} indicators={[]} />).lastFrame()).toBe('✓ completed');
    expect(
      render(<StatusLine running={false} lastTurn={{ status: 'canceled', message: 'canceled while the model was answering' }} indicators={[]} />).lastFrame(),
    ).toBe('⊘ canceled');
    expect(render(<StatusLine running={false} lastTurn={{ status: 'input-required', message: 'Which?' }} indicators={[]} />).lastFrame()).toBe(
      '? input-required',
    );
    expect(
      render(<StatusLine running={false} lastTurn={{ status: 'failed', message: 'OPENAI_API_KEY is not set; put it in .env' }} indicators={[]} />).lastFrame(),
    ).toBe('✗ failed');
  });

  it("while a questionnaire waits, says it is the person's turn, with no clock and no Esc to cancel", () => {
    const frame = render(<StatusLine running startedAt={Date.now() - 5000} personsTurn indicators={[]} />).lastFrame() ?? '';
    expect(frame).toContain('your turn');
    expect(frame).not.toMatch(/\d+s\b/);
    expect(frame).not.toContain('Esc to cancel');
  });

  it("shows the session's token use at the right", () => {
    const frame = render(<StatusLine running={false} indicators={[]} usage={{ inputTokens: 1234, outputTokens: 56 }} />).lastFrame() ?? '';
    expect(frame).toMatch(/^ready\s+1\.2k in · 56 out tokens$/);
  });

  it("shows the session's cost beside its tokens where the model's price is known", () => {
    const frame = render(<StatusLine running={false} indicators={[]} usage={{ inputTokens: 1234, outputTokens: 56, cost: 0.0123 }} />).lastFrame() ?? '';
    expect(frame).toMatch(/^ready\s+1\.2k in · 56 out tokens · \$0\.0123$/);
  });

  it('shows the indicators augments contribute, at the right', () => {
    const frame = render(<StatusLine running={false} indicators={['? ask (2)', 'board 3']} />).lastFrame() ?? '';
    expect(frame).toMatch(/^ready\s+\? ask \(2\) · board 3$/);
    expect(frame).toHaveLength(100);
  });

  it('a notice replaces the idle status, and the Esc hint beside the spinner during a turn', async () => {
    expect(render(<StatusLine running={false} lastTurn={{ status: 'completed' }} indicators={[]} notice="press Ctrl+C again to quit" />).lastFrame()).toBe(
      'press Ctrl+C again to quit',
    );
    const { lastFrame } = render(<StatusLine running startedAt={Date.now()} indicators={[]} notice="canceling…" />);
    await frameWith(lastFrame, (f) => f.includes('working 0s · canceling…'));
  });
});

describe('QuestionView', () => {
  it('marks the question with ? and shows it whole', () => {
    const frame = render(<QuestionView text="Which production service should I deploy: api-west or api-east?" />).lastFrame();
    expect(frame).toBe('\n? Which production service should I deploy: api-west or api-east?');
  });

  it('wraps a long question under its text, not under the marker', () => {
    const question = 'word '.repeat(30).trim();
    const lines = (render(<QuestionView text={question} />).lastFrame() ?? '').split('\n').slice(1);
    expect(lines[0].startsWith('? word')).toBe(true);
    expect(lines.slice(1).every((line) => line.startsWith('  word'))).toBe(true);
  });

  it('the waiting hint says the next message answers', () => {
    expect(render(<WaitingHint />).lastFrame()).toBe('  waiting for your reply');
  });
});

describe('CommandList', () => {
  const commands = [
    { name: 'help', summary: 'every command' },
    { name: 'clear', summary: 'a fresh session' },
    { name: 'session', summary: 'id and folder' },
  ];

  it('lists the matches with their summaries, aligned', () => {
    expect(render(<CommandList commands={commands} selected={0} />).lastFrame()).toBe(
      ['  /help     every command', '  /clear    a fresh session', '  /session  id and folder'].join('\n'),
    );
  });

  it('draws nothing when nothing matches', () => {
    expect(render(<CommandList commands={[]} selected={0} />).lastFrame()).toBe('');
  });

  it('shows a window around the selection and says how many more there are', () => {
    const many = Array.from({ length: 12 }, (_, i) => ({ name: `cmd${String(i).padStart(2, '0')}`, summary: `number ${i}` }));
    const frame = render(<CommandList commands={many} selected={10} max={4} />).lastFrame() ?? '';
    expect(frame).toContain('/cmd10');
    expect(frame).not.toContain('/cmd00');
    expect(frame).toContain('8 more · ↑↓ to move, Tab to complete');
  });
});

describe('ToolCallLine', () => {
  it('name, short arguments and the result in one line', () => {
    const frame = render(
      <ToolCallLine name="request_input" args={'{"prompt":"Which one?","reason":"two targets"}'} result="Which one?" state="ok" />,
    ).lastFrame();
    expect(frame).toBe('  ✓ request_input(prompt: "Which one?", reason: "two targets") → Which one?');
  });

  it('an error is shown as one', () => {
    const frame = render(
      <ToolCallLine name="deploy" args="{}" result={'There is no tool named "deploy".\nAvailable tools: request_input.'} state="error" />,
    ).lastFrame();
    expect(frame).toBe('  ✗ deploy() error: There is no tool named "deploy". (+1 lines)');
  });

  it('running and never run', () => {
    expect(render(<ToolCallLine name="slow" args='{"n":1' state="running" />).lastFrame()).toBe('  • slow({"n":1) running…');
    expect(render(<ToolCallLine name="slow" args="" state="not-run" />).lastFrame()).toBe('  ⊘ slow() not run');
  });

  it('stays one line however long the arguments and result', () => {
    const frame = render(<ToolCallLine name="write" args={JSON.stringify({ text: 'x'.repeat(500) })} result={'y'.repeat(500)} state="ok" />).lastFrame() ?? '';
    expect(frame.split('\n')).toHaveLength(1);
    expect(frame.length).toBeLessThanOrEqual(100);
  });

  it('summaries: arguments as key: value, results as their first line', () => {
    expect(summarizeArgs('{"a":[1,2],"b":{"c":1},"d":true}')).toBe('a: [2], b: {…}, d: true');
    expect(summarizeArgs('')).toBe('');
    expect(summarizeResult('\n\nfirst\nsecond\nthird')).toBe('first (+2 lines)');
    expect(summarizeResult('')).toBe('(empty)');
  });
});

describe('InputLine', () => {
  it('draws the prompt and the cursor where it is', () => {
    const { lastFrame } = render(<InputLine text="hello" cursor={2} />);
    expect(lastFrame()).toBe('› hello');
  });

  it('shows a placeholder when empty', () => {
    expect(render(<InputLine text="" cursor={0} placeholder="Type a message" />).lastFrame()).toBe('›  Type a message');
  });

  it('a long paste shows the lines around the cursor and how many more there are', () => {
    const text = Array.from({ length: 50 }, (_, i) => `line ${i + 1}`).join('\n');
    const frame = render(<InputLine text={text} cursor={text.length} maxLines={3} />).lastFrame();
    expect(frame).toBe('  … 47 more lines above\n  line 48\n  line 49\n  line 50');
    const top = render(<InputLine text={text} cursor={0} maxLines={2} />).lastFrame();
    expect(top).toBe('› line 1\n  line 2\n  … 48 more lines below');
  });

  it('draws pasted lines under each other, the prompt on the first only', () => {
    expect(render(<InputLine text={'first\nsecond'} cursor={8} />).lastFrame()).toBe('› first\n  second');
  });
});

describe('Header', () => {
  it('names the agent, the model and the session, and says when it is resumed', () => {
    const frame = render(<Header title="Demo" model="scripted:demo" sessionId="20260101-000000-abcdef" resumed />).lastFrame() ?? '';
    expect(frame.split('\n')[0]).toBe('Demo · scripted:demo · session 20260101-000000-abcdef (resumed)');
  });
});

describe('turnEndText', () => {
  it('says a status once when the message already names it', () => {
    expect(turnEndText('canceled', 'canceled while the model was answering')).toBe('canceled while the model was answering');
    expect(turnEndText('budget-exhausted', 'stopped after 10 inference rounds')).toBe('stopped after 10 inference rounds');
    expect(turnEndText('failed', 'the provider refused the key')).toBe('failed: the provider refused the key');
    expect(turnEndText('canceled')).toBe('canceled');
  });
});

describe('QueuedMessages', () => {
  const linesOf = (...texts: string[]) => texts.reduce(enqueue, emptyQueue).lines;

  it('draws nothing while nothing is queued', () => {
    expect(render(<QueuedMessages lines={[]} />).lastFrame()).toBe('');
  });

  it('a dim row a line, newest last, a pasted line cut to its first, then what the keys do', () => {
    const frame = render(<QueuedMessages lines={linesOf('first\nand more', 'second')} />).lastFrame() ?? '';
    expect(frame.split('\n')).toEqual(['', '  queued: first …', '  queued: second', '  ↑ edits the last · Esc removes it · sent as turns end']);
  });

  it('counts the older lines in one row when many wait, and says a question on screen holds them', () => {
    const frame = render(<QueuedMessages lines={linesOf('one', 'two', 'three', 'four', 'five', 'six')} questionOpen />).lastFrame() ?? '';
    expect(frame).toContain('… 2 more queued');
    expect(frame).not.toContain('queued: two');
    expect(frame).toContain('queued: six');
    expect(frame).toContain('sent once the question is answered and the turn ends');
  });
});

describe('StatusLine while a turn runs', () => {
  it('shows the hint it is given in the place of Esc to cancel', async () => {
    const { lastFrame } = render(<StatusLine running startedAt={Date.now()} indicators={[]} hint="Enter queues" />);
    const frame = await frameWith(lastFrame, (f) => f.includes('working'));
    expect(frame).toMatch(/working 0s · Enter queues$/);
  });
});
