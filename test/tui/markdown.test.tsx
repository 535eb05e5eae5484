import { describe, expect, it } from 'vitest';
import { render } from 'ink-testing-library';
import { Text } from 'ink';
import { markdownRows } from '../../src/hosts/tui/markdown/markdown-rows.js';
import { rowText } from '../../src/hosts/tui/transcript-rows/styled-text.js';
import { clipMarkdownTail, splitFinishedBlocks } from '../../src/hosts/tui/markdown/markdown-blocks.js';
import { COLOUR_PALETTE, NO_COLOUR_PALETTE, paletteFor } from '../../src/hosts/tui/palette.js';
import { TranscriptItem } from '../../src/hosts/tui/transcript-item.js';
import { applyEvent, emptyTranscript, liveItems } from '../../src/hosts/tui/transcript-state.js';

/** The reply's rows drawn by Ink, as the chat's live frame draws them. */
const frameOf = (text: string, width = 60) => render(<Text>{markdownRows(text, width, COLOUR_PALETTE).map(rowText).join('\n')}</Text>).lastFrame() ?? '';

describe('Markdown', () => {
  it('draws headings, emphasis, inline code and links without their markers', () => {
    const frame = frameOf('## Plan\n\nShip **now**, not *later*: run `npm test` first, see [docs](https://example.com).', 100);
    expect(frame).toBe('Plan\n\nShip now, not later: run npm test first, see docs (https://example.com).');
  });

  it('draws a half-received fence as code, not as loose text', () => {
    const frame = frameOf('Here it is:\n\n```ts\nconst a = 1;\nconst b');
    expect(frame).not.toContain('```');
    expect(frame).toBe('Here it is:\n\n  ts\n  const a = 1;\n  const b');
  });

  it('draws the same half-received fence while it streams in the transcript', () => {
    let state = emptyTranscript({ splitStreaming: true });
    state = applyEvent(state, { type: 'TEXT_MESSAGE_START', messageId: 'm', role: 'assistant' });
    for (const delta of ['Here it is:', '\n\n```ts', '\nconst a = 1;', '\nconst b']) {
      state = applyEvent(state, { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta });
    }
    const [live] = liveItems(state);
    const frame = render(<TranscriptItem item={live} />).lastFrame() ?? '';
    expect(frame).not.toContain('```');
    expect(frame).toContain('  ts\n    const a = 1;\n    const b');
  });

  it('draws lists, ordered lists, task items and quotes', () => {
    expect(frameOf('- one\n- two\n\n3. three\n4. four')).toBe('• one\n• two\n\n3. three\n4. four');
    expect(frameOf('- [x] done\n- [ ] to do')).toBe('• ☑ done\n• ☐ to do');
    expect(frameOf('> quoted')).toBe('│ quoted');
  });

  it('draws a table in columns, right-aligned where asked', () => {
    expect(frameOf('| name | n |\n|---|--:|\n| alpha | 1 |\n| b | 22 |')).toBe('name  │  n\n──────┼───\nalpha │  1\nb     │ 22');
  });

  it('measures table columns as the terminal draws them: wide characters and emoji by width, markup not at all', () => {
    const frame = frameOf('| a 👍🏽 | **日本語テキスト** |\n|---|---|\n| `x` | y |', 120);
    expect(frame).toBe('a 👍🏽 │ 日本語テキスト\n─────┼───────────────\nx    │ y');
  });

  it('wraps paragraphs to the width it is given', () => {
    const frame = frameOf('word '.repeat(40).trim(), 24);
    expect(frame.split('\n').length).toBeGreaterThan(5);
    for (const line of frame.split('\n')) expect(line.length).toBeLessThanOrEqual(24);
  });
});

describe('streaming a reply block by block', () => {
  it('keeps the last block live and the ones before it final', () => {
    expect(splitFinishedBlocks('one\n\ntwo')).toEqual({ done: 'one', rest: 'two' });
    expect(splitFinishedBlocks('only one block')).toBeUndefined();
    expect(splitFinishedBlocks('intro\n\n```js\nhalf')).toEqual({ done: 'intro', rest: '```js\nhalf' });
  });

  it('cuts a long open code block to its end, its fence kept', () => {
    const text = `\`\`\`py\n${Array.from({ length: 50 }, (_, i) => `x = ${i}`).join('\n')}`;
    const clipped = clipMarkdownTail(text, 40);
    expect(clipped.startsWith('```py\n…\n')).toBe(true);
    expect(clipped.endsWith('x = 49')).toBe(true);
  });
});

describe('NO_COLOR', () => {
  it('picks the palette without colours when set to anything but empty', () => {
    expect(paletteFor({ NO_COLOR: '1' })).toBe(NO_COLOUR_PALETTE);
    expect(paletteFor({ NO_COLOR: '' })).toBe(COLOUR_PALETTE);
    expect(paletteFor({})).toBe(COLOUR_PALETTE);
    expect(Object.values(NO_COLOUR_PALETTE).filter((value) => typeof value === 'string')).toEqual([]);
  });
});
