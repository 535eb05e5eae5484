import { describe, expect, it } from 'vitest';
import { copyExample, makeAgentFolder } from '../helpers/agent-fixture.js';
import { auggyTerminals, sendLine } from '../helpers/auggy-terminal.js';
import { tmuxAvailable, type Terminal } from '../helpers/tmux.js';

const terminals = auggyTerminals();

const REPLY = [
  '# Release notes',
  '',
  'This is **bold**, *italic* and `inline code`; see [the docs](https://example.com/docs).',
  '',
  '```ts',
  'const answer: number = 42; // the answer',
  '```',
  '',
  '- first item',
  '- second item',
  '',
  '| name | value |',
  '|------|------:|',
  '| alpha | 1 |',
].join('\n');

/** An agent whose scripted model answers every message with the markdown above. */
function markdownAgent(): string {
  return makeAgentFolder({
    engine: 'engine:\n  provider: scripted\n  model: demo\n  script: ./script.yaml\n',
    files: { 'script.yaml': `rules:\n  - match: ".*"\n    steps:\n      - text: ${JSON.stringify(REPLY)}\n` },
  });
}

/** The parameters of every SGR sequence (`ESC [ … m`) on the screen. */
function sgrCodes(screen: string): number[] {
  return [...screen.matchAll(/\u001b\[([0-9;]*)m/g)].flatMap((match) =>
    match[1]
      .split(';')
      .filter((part) => part !== '')
      .map(Number),
  );
}

/** Foreground and background colours: 30–38, 40–48, 90–97, 100–107 (39 and 49 are the defaults). */
function colourCodes(screen: string): number[] {
  return sgrCodes(screen).filter(
    (code) => (code >= 30 && code <= 38) || (code >= 40 && code <= 48) || (code >= 90 && code <= 97) || (code >= 100 && code <= 107),
  );
}

function inputArea(screen: string): string {
  const lines = screen.split('\n');
  const rules = lines.flatMap((line, index) => (line.startsWith('──') ? [index] : []));
  return rules.length < 2
    ? ''
    : lines
        .slice(rules.at(-2)! + 1, rules.at(-1))
        .join('\n')
        .trim();
}

async function inputShows(t: Terminal, text: string): Promise<void> {
  await t.waitForScreen((screen) => inputArea(screen) === `› ${text}`.trimEnd(), `the input holding ${JSON.stringify(text)}`);
}

describe.skipIf(!tmuxAvailable())('the chat in a real terminal', { timeout: 180_000 }, () => {
  it('renders a markdown reply: no ** or # left, the code block highlighted', async () => {
    const t = await terminals.run(markdownAgent());
    await sendLine(t, 'hi');
    const screen = await t.waitForText('alpha');
    expect(screen).toContain('Release notes');
    expect(screen).not.toContain('# Release');
    expect(screen).not.toContain('**');
    expect(screen).not.toContain('`inline code`');
    expect(screen).not.toContain('```');
    expect(screen).toContain('This is bold, italic and inline code; see the docs (https://example.com/docs).');
    expect(screen).toMatch(/• first item/);
    expect(screen).toMatch(/alpha │\s+1/);
    const coloured = await t.screen({ escapes: true });
    const codeLine = coloured.split('\n').find((line) => line.includes('answer'));
    expect(colourCodes(codeLine ?? '').length).toBeGreaterThan(1);
  });

  it('honours NO_COLOR: no colour escapes anywhere on the screen', async () => {
    const plain = await terminals.run(markdownAgent(), [], { env: { NO_COLOR: '1' } });
    await sendLine(plain, 'hi');
    await plain.waitForText('alpha');
    const screen = await plain.screen({ escapes: true });
    expect(colourCodes(screen)).toEqual([]);
    // Emphasis is not colour: bold still marks the heading.
    expect(sgrCodes(screen)).toContain(1);
  });

  it('↑ walks the history past a /command, and an unknown command leaves the input empty', async () => {
    const t = await terminals.run(copyExample());
    await sendLine(t, 'hello');
    await t.waitForText("Hello! I'm the demo agent.");
    await sendLine(t, '/session');
    await t.waitForText('resume  ');
    await sendLine(t, '/nope');
    await t.waitForText('unknown command /nope');
    // The placeholder is back: the line was cleared (the cursor is a blank cell before it).
    await inputShows(t, ' Type a message · / for commands');
    await t.press('Up');
    await inputShows(t, '/nope');
    await t.press('Up');
    await inputShows(t, '/session');
    await t.press('Up');
    await inputShows(t, 'hello');
  });

  it('Tab completes the common prefix, then cycles through the matches; arrows pick from the menu', async () => {
    const t = await terminals.run(copyExample());
    await t.type('/cl');
    await inputShows(t, '/cl');
    await t.press('Tab');
    await inputShows(t, '/clear');
    for (let i = 0; i < 6; i++) await t.press('BSpace');
    await t.type('/b');
    await inputShows(t, '/b');
    await t.press('Tab');
    await inputShows(t, '/back');
    await t.press('Tab');
    await inputShows(t, '/board');
    await t.press('Tab');
    await inputShows(t, '/back');
    for (let i = 0; i < 5; i++) await t.press('BSpace');
    await t.type('/');
    // The whole list, not the header's "/help for commands" nor an earlier, narrower list.
    const listed = await t.waitForScreen((screen) => /^ {2}\/help\b/m.test(screen) && /^ {2}\/away\b/m.test(screen), 'the command list');
    // The menu lists the commands in order; Down moves the highlight and Enter runs that one.
    // Read from the screen the wait saw: a second capture could catch the next frame half drawn.
    const menu = listed
      .split('\n')
      .filter((line) => /^ {2}\/\w+/.test(line))
      .map((line) => line.trim().split(/\s+/)[0]);
    await t.press('Down');
    await t.press('Enter');
    expect(menu[1]).toBeDefined();
    await t.waitForText(new RegExp(`^› ${menu[1]}$`, 'm'));
  });

  it('the / menu opens again after Esc closed it, once the / is typed anew', async () => {
    const t = await terminals.run(copyExample());
    // The menu's rows, not the header's "/help for commands".
    const menuShown = (screen: string) => /^ {2}\/help\b/m.test(screen);
    await t.type('/');
    await t.waitForScreen(menuShown, 'the command menu');
    await t.press('Escape');
    await t.waitForScreen((screen) => !menuShown(screen) && inputArea(screen) === '› /', 'the menu closed, the / still typed');
    await t.press('BSpace');
    await inputShows(t, ' Type a message · / for commands');
    await t.type('/');
    await t.waitForScreen((screen) => menuShown(screen) && inputArea(screen) === '› /', 'the command menu again');
    // Closed again, it opens for a name typed after the /.
    await t.press('Escape');
    await t.waitForScreen((screen) => !menuShown(screen), 'the menu closed again');
    await t.type('he');
    await t.waitForScreen((screen) => menuShown(screen) && inputArea(screen) === '› /he', 'the menu for /he');
  });

  it("during a questionnaire the status line says it is the person's turn, with no clock and no Esc to cancel", async () => {
    const t = await terminals.run(copyExample());
    await sendLine(t, 'plan a release');
    const screen = await t.waitForText('Which environment?');
    const status = screen.trimEnd().split('\n').at(-1) ?? '';
    expect(status).toContain('your turn');
    expect(status).not.toMatch(/working|\d+s\b/);
    expect(screen).not.toContain('Esc to cancel');
    expect(screen).toContain('Esc declines');
    // Enter on nothing for a required field is refused there and then, not after the last question.
    await sendLine(t, '2');
    await t.waitForText('How many replicas?');
    await t.press('Enter');
    const refused = await t.waitForText('an answer is required');
    expect(refused).toContain('How many replicas?');
  });

  it("shows request_input's question once and never its reason; the status line counts tokens", async () => {
    const t = await terminals.run(copyExample());
    await sendLine(t, 'deploy the api');
    const screen = await t.waitForText('waiting for your reply');
    const question = 'Which production service should I deploy: api-west or api-east?';
    expect(screen.split(question)).toHaveLength(2);
    expect(screen).not.toContain('request_input');
    expect(screen).not.toContain('Two production targets are configured');
    expect(screen).toMatch(/\d+ in · \d+ out tokens/);
  });
});
