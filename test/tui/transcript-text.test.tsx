import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import chalk from 'chalk';
import { renderToString, Static } from 'ink';
import { styledCharsFromTokens, tokenize } from '@alcalzone/ansi-tokenize';
import stringWidth from 'string-width';
import { stripVTControlCharacters } from 'node:util';
import type { DisplayItem } from '../../src/hosts/tui/display-items.js';
import { COLOUR_PALETTE, NO_COLOUR_PALETTE, PaletteProvider, type Palette } from '../../src/hosts/tui/palette.js';
import { ScreenWidthProvider } from '../../src/hosts/tui/screen-width.js';
import { TranscriptItem } from '../../src/hosts/tui/transcript-item.js';
import { transcriptText } from '../../src/hosts/tui/transcript-rows/transcript-text.js';
import { textWidth } from '../../src/hosts/tui/transcript-rows/row-layout.js';

/** What the chat's <Static> draws for items finishing during the chat: the live frame's drawing of them. */
function throughStatic(items: DisplayItem[], width: number, palette: Palette): string {
  const drawn = renderToString(
    <PaletteProvider palette={palette}>
      <ScreenWidthProvider columns={width}>
        <Static items={items} style={{ width }}>
          {(item) => <TranscriptItem key={item.id} item={item} />}
        </Static>
      </ScreenWidthProvider>
    </PaletteProvider>,
    { columns: width },
  );
  return `${drawn}\n`;
}

/** Each row's characters, each with the set of styles it is drawn in: two texts that look the same read the same. */
function canonical(text: string): string {
  return text
    .split('\n')
    .map((line) => {
      const chars = styledCharsFromTokens(tokenize(line)).map(
        (char) =>
          `${char.value}{${char.styles
            .map((style) => style.code)
            .sort()
            .join('')}}`,
      );
      while (chars.length > 0 && chars.at(-1) === ' {}') chars.pop();
      return chars.join('');
    })
    .join('\n');
}

/** The widest row of the text, in terminal columns. */
function widest(text: string): number {
  return Math.max(
    ...stripVTControlCharacters(text)
      .split('\n')
      .map((row) => stringWidth(row)),
  );
}

let id = 0;
const user = (text: string): DisplayItem => ({ kind: 'user', id: `u${++id}`, text });
const reply = (text: string, continued = false): DisplayItem => ({ kind: 'assistant', id: `a${++id}`, text, continued });

const LONG = 'The rollout of service seven is at forty per cent and the canary has been healthy for an hour, so the next step widens it.';

/** Items of every kind and look. */
const common: DisplayItem[] = [
  { kind: 'header', id: 'h', title: 'Demo', model: 'scripted:demo', sessionId: '2026-12-01-abc', resumed: true },
  user('how is the deploy going?'),
  user(LONG),
  user(`two  spaces,   three, and a long word ${'x'.repeat(130)} then more`),
  user('line one\nline two\n\nafter a blank line'),
  user(''),
  reply(LONG),
  reply('Ship **now**, not *later*: run `npm test` first, ~~never~~ see [the docs](https://example.com) or <https://example.com>.'),
  reply(`A **bold run that goes on for long enough to wrap across ${'more words '.repeat(8)}lines** and *italic ${'words '.repeat(12)}too*.`),
  reply('# Title\n\n## Section\n\n### Sub-section\n\nText under it.'),
  reply(
    'Here it is:\n\n```ts\nconst answer = await fetch("https://example.com/api", { method: "POST" }); // a comment long enough to wrap\nexport function f(a: number): string {\n  return `${a}`;\n}\n```\n\nAnd after.',
  ),
  reply('```python\ndef main():\n    print("hi")  # greet\n```'),
  reply('```\nno language here\n    indented\n```'),
  reply('```made-up-language\nwhatever this is\n```'),
  reply('- one\n- two with `code`\n- three, **long** enough to wrap around the edge of a narrow screen when it is drawn'),
  reply('1. first\n2. second\n   - nested a\n   - nested b\n3. third'),
  reply('9. nine\n10. ten\n11. eleven'),
  reply('- loose one\n\n- loose two\n\n  with a second paragraph'),
  reply('Above\n\n---\n\nBelow, then a line  \nbreak and an ![image](https://example.com/a.png).'),
  reply('Dashes — and quotes “like these”, ellipses… arrows → ← and café, naïve, 5 €.'),
  reply('the rest of a long reply', true),
  reply('   '),
  { kind: 'tool', id: 't1', name: 'read_file', args: '{"path":"src/index.ts"}', result: 'export const x = 1;', state: 'ok' },
  { kind: 'tool', id: 't2', name: 'shell', args: '{"command":"npm test"}', result: 'exit 1: 3 failed', state: 'error' },
  { kind: 'tool', id: 't3', name: 'search', args: '{"q":"deploy"}', state: 'running' },
  { kind: 'tool', id: 't4', name: 'search', args: '{"q":"deploy"}', state: 'not-run' },
  { kind: 'question', id: 'q', text: 'Which service should I deploy first?' },
  { kind: 'turn-end', id: 'e1', status: 'failed', message: 'the provider refused the key' },
  { kind: 'turn-end', id: 'e2', status: 'canceled' },
  { kind: 'turn-end', id: 'e3', status: 'budget-exhausted', message: 'stopped after 20 steps' },
  { kind: 'system', id: 's1', text: 'new conversation: session 2026-12-01-def', tone: 'info' },
  { kind: 'system', id: 's2', text: `a warning ${LONG}`, tone: 'warning' },
  { kind: 'system', id: 's3', text: 'an error', tone: 'error' },
];

/** Wide characters, emoji, tables, quotes, task lists, tabs, a long question, a tool line cut at the edge. */
const unusual: DisplayItem[] = [
  user('部署进展如何？服务七的发布已经到了百分之四十，金丝雀版本已经健康运行了一个小时。'),
  user('ship it 🚀🚀 today, 👍🏽 and 👨‍👩‍👧 too'),
  reply('Done ✅ — the 服务 is **live** 🎉 and `ok`.'),
  reply('| service | state |\n|---|---:|\n| api | 40% |\n| worker | done |'),
  reply('> quoted advice\n> over two lines'),
  reply('- [x] done\n- [ ] not yet'),
  reply('tab\tseparated'),
  {
    kind: 'question',
    id: 'q2',
    text: 'Which service should I deploy first, the api or the worker? Both are ready, built, tested and waiting for you to say which.',
  },
  {
    kind: 'tool',
    id: 't5',
    name: 'filesystem__write_file_and_tell_me_what_changed_in_a_long_name',
    args: JSON.stringify({ path: 'a/very/long/path/'.repeat(6), content: 'x'.repeat(200) }),
    result: 'wrote it',
    state: 'ok',
  },
];

/** A seeded stream of numbers in [0, 1), so every run draws the same documents. */
function rng(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
}
/** A reply of random paragraphs, headings, code blocks, rules and lists, with every inline style nested in others. */
function randomReply(seed: number): string {
  const r = rng(seed);
  const pick = <T,>(a: T[]) => a[Math.floor(r() * a.length)];
  const word = () =>
    pick([
      'deploy',
      'the',
      'a',
      'service',
      'rollout',
      'café',
      'naïve',
      '—',
      '“quoted”',
      'x'.repeat(1 + Math.floor(r() * 70)),
      'end.',
      '→',
      '…',
      '5€',
      'foo_bar',
      'a*b',
      '2 * 3',
      '<tag>',
      '&amp;',
      '\\*',
      'http://example.com/a',
      'mail@example.com',
    ]);
  const inlineRun = (n: number): string =>
    Array.from({ length: n }, () => {
      const w = word();
      const roll = r();
      if (roll < 0.08) return `**${w} ${word()}**`;
      if (roll < 0.14) return `*${w}*`;
      if (roll < 0.2) return `\`${w}\``;
      if (roll < 0.24) return `[${w}](https://example.com/${Math.floor(r() * 9)})`;
      if (roll < 0.27) return `~~${w}~~`;
      if (roll < 0.29) return `**bold *nested ${w}* \`code\`**`;
      if (roll < 0.31) return `${w}  \n`;
      return w;
    }).join(pick([' ', ' ', ' ', '  ']));
  const blocks: string[] = [];
  const count = 1 + Math.floor(r() * 5);
  for (let i = 0; i < count; i++) {
    const roll = r();
    if (roll < 0.4) blocks.push(inlineRun(3 + Math.floor(r() * 40)));
    else if (roll < 0.5) blocks.push(`${'#'.repeat(1 + Math.floor(r() * 4))} ${inlineRun(2 + Math.floor(r() * 12))}`);
    else if (roll < 0.65)
      blocks.push(
        `\`\`\`${pick(['ts', 'python', 'json', 'bash', 'nope', '', 'go'])}\n${Array.from({ length: 1 + Math.floor(r() * 5) }, () => pick(['const a = 1;', '  if (x) { return "s" } // c', 'def f(x):\n    return x * 2', '{"a": [1, 2, "three"]}', 'echo $HOME && ls -la', 'x'.repeat(Math.floor(r() * 120)), 'fmt.Println("hi")'])).join('\n')}\n\`\`\``,
      );
    else if (roll < 0.72) blocks.push('---');
    else if (roll < 0.88) {
      const ordered = r() < 0.5;
      const loose = r() < 0.3;
      blocks.push(
        Array.from(
          { length: 1 + Math.floor(r() * 4) },
          (_, k) => `${ordered ? `${k + 1}.` : '-'} ${inlineRun(1 + Math.floor(r() * 14))}${r() < 0.2 ? `\n   - ${inlineRun(3)}` : ''}`,
        ).join(loose ? '\n\n' : '\n'),
      );
    } else blocks.push(`${inlineRun(5)}\n${inlineRun(5)}`);
  }
  return blocks.join('\n\n');
}

const WIDTHS = [100, 61, 33, 22];

describe('the transcript, printed and drawn live from the same rows', () => {
  let level: typeof chalk.level;
  beforeEach(() => {
    level = chalk.level;
  });
  afterEach(() => {
    chalk.level = level;
  });

  for (const [name, palette, colourLevel] of [
    ['in colour', COLOUR_PALETTE, 3],
    ['in colour, 16 colours', COLOUR_PALETTE, 1],
    ['with NO_COLOR (bold and dim only)', NO_COLOUR_PALETTE, 3],
    ['on a terminal without styles', COLOUR_PALETTE, 0],
  ] as const) {
    it(`prints every item as Ink draws it in the chat, within the width, ${name}`, () => {
      chalk.level = colourLevel;
      for (const width of WIDTHS) {
        for (const item of [...common, ...unusual]) {
          const printed = transcriptText([item], width, palette);
          expect(canonical(printed), `${item.kind} ${item.id} at ${width} columns`).toBe(canonical(throughStatic([item], width, palette)));
          expect(widest(printed), `${item.kind} ${item.id} at ${width} columns`).toBeLessThanOrEqual(width);
        }
      }
    });
  }

  it('lays out random replies (styles nested in styles, at any width) within the width, as Ink draws them', () => {
    chalk.level = 3;
    for (let seed = 1; seed <= 60; seed++) {
      const text = randomReply(seed);
      const items: DisplayItem[] = [
        { kind: 'assistant', id: `r${seed}`, text, continued: false },
        { kind: 'user', id: `q${seed}`, text: text.replace(/[`*#~[\]]/g, '') },
      ];
      const width = 12 + Math.floor(rng(seed * 7)() * 100);
      for (const item of items) {
        const printed = transcriptText([item], width, COLOUR_PALETTE);
        expect(widest(printed), `seed ${seed}, ${width} columns, ${item.kind}: ${JSON.stringify(text)}`).toBeLessThanOrEqual(width);
        expect(canonical(printed), `seed ${seed}, ${width} columns, ${item.kind}`).toBe(canonical(throughStatic([item], width, COLOUR_PALETTE)));
      }
    }
  });

  it('wraps wide characters and emoji by the columns they take, never cutting one in half', () => {
    const text = '部署进展如何？服务七的发布已经到了百分之四十 👨‍👩‍👧👍🏽 金丝雀版本已经健康运行了一个小时。';
    for (const width of [9, 14, 23, 40]) {
      const printed = stripVTControlCharacters(transcriptText([user(text)], width, COLOUR_PALETTE));
      expect(widest(printed)).toBeLessThanOrEqual(width);
      const rows = printed
        .trimEnd()
        .split('\n')
        .slice(1)
        .map((row) => row.slice(2));
      expect(rows.join('').replace(/ /g, '')).toBe(text.replace(/ /g, ''));
    }
  });

  it("keeps what a reply says about the terminal out of it: no escape sequence reaches the screen but the rows' own styles", () => {
    chalk.level = 0;
    const printed = transcriptText(
      [reply('clear \u001b[2J\u001b[Hthe screen, \u001b[31mred\u001b[0m, a \u001b]0;title\u0007 and a bell\u0007.')],
      80,
      COLOUR_PALETTE,
    );
    expect(printed).not.toContain('\u001b');
    expect(printed).not.toContain('\u0007');
    expect(printed).toContain('the screen, red, a  and a bell.');
    const elsewhere = transcriptText(
      [
        reply('```sh\necho \u001b[2Jgone\n```'),
        user('typed \u001b[1Abut not moved'),
        { kind: 'system', id: 's', tone: 'info', text: 'said \u001b]8;;x\u0007here' },
      ],
      80,
      COLOUR_PALETTE,
    );
    expect(elsewhere).not.toContain('\u001b');
    expect(elsewhere).toContain('echo gone');
  });

  it('cuts a tool line at the edge with an ellipsis, one row however long', () => {
    const printed = stripVTControlCharacters(transcriptText([unusual.find((item) => item.kind === 'tool')!], 60, COLOUR_PALETTE));
    expect(printed.trimEnd().split('\n')).toHaveLength(1);
    expect(stringWidth(printed.trimEnd())).toBe(60);
    expect(printed.trimEnd().endsWith('…')).toBe(true);
  });

  it('draws an item again when the width changes, not from what it printed before', () => {
    const item = reply(`**${LONG}**`);
    const wide = transcriptText([item], 100, COLOUR_PALETTE);
    const narrow = transcriptText([item], 40, COLOUR_PALETTE);
    expect(narrow).not.toBe(wide);
    expect(widest(narrow)).toBeLessThanOrEqual(40);
    expect(transcriptText([item], 100, COLOUR_PALETTE)).toBe(wide);
  });

  it('measures text as string-width does, by its length only where every character takes one column', () => {
    for (let code = 0x20; code < 0x2600; code++) {
      const char = String.fromCodePoint(code);
      expect(textWidth(char), `U+${code.toString(16)}`).toBe(stringWidth(char));
    }
    for (const text of ['● › • · ✓ ✗ ⊘ … ☑ ☐ ─ │ ┼ →', 'café, naïve — “quoted”', '\t', '服务', '🚀 👍🏽 👨‍👩‍👧', 'e\u0301', '\u200b', '\u00ad', '↔\ufe0f']) {
      expect(textWidth(text), JSON.stringify(text)).toBe(stringWidth(text));
    }
  });
});
