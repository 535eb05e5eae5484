import { describe, expect, it } from 'vitest';
import { makeAgentFolder } from '../helpers/agent-fixture.js';
import { TUI_READY, auggyTerminals, sendLine } from '../helpers/auggy-terminal.js';
import { chatServersPerTest } from '../helpers/chat-server.js';
import { tmuxAvailable, type Terminal } from '../helpers/tmux.js';

// Servers first: after-each hooks run last-registered first, so the chats end before their servers close.
const startServer = chatServersPerTest();
const terminals = auggyTerminals();

const WIDTH = 60;
// A reply's text is 58 columns beside its gutter; a code block's and a list item's 56, two more in.
const WORDS = ['alpha', 'bravo', 'delta', 'gamma', 'omega', 'sigma', 'kappa', 'theta', 'zetas'];
const FULL_ROW = `${WORDS.join(' ')} lima`;
const INDENTED_ROW = `${WORDS.join(' ')} li`;
const REPLY = [
  `${FULL_ROW} ${FULL_ROW} ${FULL_ROW}`,
  '',
  '```',
  `${INDENTED_ROW} ${INDENTED_ROW}`,
  '```',
  '',
  `- ${INDENTED_ROW} ${FULL_ROW}`,
  '',
  'DONE',
].join('\n');

const TABLE = [
  'Here is the state of the services:',
  '',
  '| service | status | region | note |',
  '|---|---|---|---|',
  '| api-west | healthy | eu-west | Serving all traffic in the west since the canary was promoted this morning |',
  '| api-east | degraded | us-east | Error rate above the budget after the last deploy; a rollback is being prepared |',
].join('\n');

/** Rows of the reply: each starts where its block's text does (gutter, code indent, list marker), never a column later. */
function strayRows(screen: string): string[] {
  return screen.split('\n').filter((line) => /\b(alpha|lima|li)\b/.test(line) && !/^(● | {2}• | {2}| {4})\S/.test(line));
}

/** The rows between the rules around the input. */
function inputRows(screen: string): string[] {
  const lines = screen.split('\n');
  const rules = lines.flatMap((line, index) => (line.startsWith('──') ? [index] : []));
  return rules.length < 2 ? [] : lines.slice(rules.at(-2)! + 1, rules.at(-1)).map((line) => line.trimEnd());
}

async function chatAt60(replies: { text: string; chunkDelayMs?: number }[]): Promise<Terminal> {
  const server = await startServer(replies);
  return terminals.run(makeAgentFolder(), ['--model', 'openai-compatible:test', '--base-url', server.url], { width: WIDTH, height: 40 });
}

describe.skipIf(!tmuxAvailable())('wrapping at exactly the terminal width', { timeout: 180_000 }, () => {
  it('starts no row of a reply with the space after a full row: streamed, printed, in code and in lists', async () => {
    const t = await chatAt60([{ text: REPLY, chunkDelayMs: 15 }]);
    await sendLine(t, 'hi');
    // Every frame seen while the reply streams, then the printed transcript.
    const seen: string[] = [];
    const done = await t.waitForScreen((screen) => {
      seen.push(screen);
      return screen.includes('✓ completed');
    }, 'the reply to finish');
    seen.push(done, await t.screen({ scrollback: true }));
    expect(seen.filter((screen) => screen.includes('alpha')).length).toBeGreaterThan(1);
    for (const screen of seen) expect(strayRows(screen), screen).toEqual([]);
    const printed = (await t.screen({ scrollback: true })).split('\n');
    expect(printed.filter((line) => line === `● ${FULL_ROW}` || line === `  ${FULL_ROW}`)).toHaveLength(3);
    expect(printed.filter((line) => line === `    ${INDENTED_ROW}`)).toHaveLength(2);
    expect(printed).toContain(`  • ${INDENTED_ROW}`);
    expect(printed).toContain(`    ${WORDS.join(' ')}`);
    expect(printed).toContain('    lima');
  });

  it('wraps the input at words, no row starting with the space of the break, every character kept', async () => {
    const t = await chatAt60([{ text: 'ok' }]);
    // Words that fill the input's row to its last column but one, then to its last, then beyond.
    const typed = `${FULL_ROW.slice(0, -1)} ${FULL_ROW} ${FULL_ROW} end`;
    await t.type(typed);
    const screen = await t.waitForScreen((s) => inputRows(s).join(' ').includes('end'), 'the typed text');
    const rows = inputRows(screen);
    expect(rows.length, screen).toBeGreaterThan(2);
    for (const [index, row] of rows.entries()) expect(row, screen).toMatch(index === 0 ? /^› \S/ : /^ {2}\S/);
    expect(rows.every((row) => row.length <= WIDTH)).toBe(true);
    expect(rows.map((row) => row.slice(2)).join(' ')).toBe(typed);
    await t.press('Enter');
    await t.waitForText('ok');
    await t.waitForText(TUI_READY);
  });

  it('draws a table wider than the terminal with its short words whole, the long column wrapped at words, borders in line', async () => {
    const t = await chatAt60([{ text: TABLE }]);
    await sendLine(t, 'how are the services');
    await t.waitForText('✓ completed');
    const lines = (await t.screen({ scrollback: true })).split('\n');
    const table = lines.slice(lines.findIndex((line) => /service +│/.test(line)));
    const rows = table.slice(
      0,
      table.findIndex((line) => !line.includes('│') && !line.includes('┼')),
    );
    expect(rows.length, lines.join('\n')).toBeGreaterThan(4);
    expect(rows.every((row) => row.length <= WIDTH)).toBe(true);
    const borders = (line: string) => [...line].flatMap((char, index) => (char === '│' || char === '┼' ? [index] : []));
    for (const row of rows) expect(borders(row), rows.join('\n')).toEqual(borders(rows[0]));
    const cells = rows
      .filter((row) => row.includes('│'))
      .map((row) =>
        row
          .slice(2)
          .split('│')
          .map((cell) => cell.trim()),
      );
    const column = (index: number) => cells.map((cell) => cell[index]).filter(Boolean);
    expect(column(0)).toEqual(['service', 'api-west', 'api-east']);
    expect(column(1)).toEqual(['status', 'healthy', 'degraded']);
    expect(column(2)).toEqual(['region', 'eu-west', 'us-east']);
    expect(column(3).join(' ')).toBe(
      'note Serving all traffic in the west since the canary was promoted this morning Error rate above the budget after the last deploy; a rollback is being prepared',
    );
  });
});
