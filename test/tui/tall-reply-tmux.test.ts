import { describe, expect, it } from 'vitest';
import { makeAgentFolder } from '../helpers/agent-fixture.js';
import { TUI_READY, auggyTerminals, sendLine } from '../helpers/auggy-terminal.js';
import { tmuxAvailable, type Terminal } from '../helpers/tmux.js';

const terminals = auggyTerminals();

/** Until the turn has ended: the status line no longer says it is working. */
async function turnEnded(t: Terminal): Promise<void> {
  await t.waitForScreen((screen) => TUI_READY.test(screen) && !screen.includes('working'), 'the turn to end');
}

const LIST = Array.from({ length: 60 }, (_, i) => `- item ${i + 1}`).join('\n');
const CODE = ['```go', 'func main() {', ...Array.from({ length: 40 }, (_, i) => `\tfmt.Println("line_${i + 1}")`), '}', '```'].join('\n');

/** A scripted agent: a short first reply, then replies far taller than the terminal, streamed slowly. */
function tallAgent(): string {
  const script = [
    'chunkDelayMs: 2',
    'rules:',
    '  - match: "first"',
    '    steps:',
    '      - text: "FIRST-REPLY-MARK"',
    '  - match: "list"',
    '    steps:',
    `      - text: ${JSON.stringify(LIST)}`,
    '  - match: "code"',
    '    steps:',
    `      - text: ${JSON.stringify(CODE)}`,
    '',
  ].join('\n');
  return makeAgentFolder({ engine: 'engine:\n  provider: scripted\n  model: demo\n  script: ./script.yaml\n', files: { 'script.yaml': script } });
}

describe.skipIf(!tmuxAvailable())('a streamed reply taller than the terminal', { timeout: 180_000 }, () => {
  it('leaves what was printed above it in place and prints every one of its rows once', async () => {
    const t = await terminals.run(tallAgent(), [], { width: 60, height: 16 });
    await sendLine(t, 'first');
    await t.waitForText('FIRST-REPLY-MARK');
    await turnEnded(t);
    await sendLine(t, 'list');
    await t.waitForText('item 60');
    await turnEnded(t);
    await sendLine(t, 'code');
    await t.waitForText('line_40');
    await turnEnded(t);
    const all = await t.screen({ scrollback: true });
    expect(all).not.toContain('Render methods should be');
    expect(all).toContain('Fixture');
    expect(all).toContain('FIRST-REPLY-MARK');
    for (let i = 1; i <= 60; i++) expect(all.match(new RegExp(`item ${i}\\b`, 'g'))?.length, `item ${i}`).toBe(1);
    for (let i = 1; i <= 40; i++) expect(all.match(new RegExp(`line_${i}\\b`, 'g'))?.length, `line_${i}`).toBe(1);
    // Tabs are drawn as spaces: no row runs past the pane's 60 columns and wraps.
    expect(all).toContain('    fmt.Println("line_1")');
    expect(all.split('\n').every((line) => line.length <= 60)).toBe(true);
  });
});
