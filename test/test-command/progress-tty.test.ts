import { describe, expect, it } from 'vitest';
import { AUGGY_BIN, makeAgentFolder } from '../helpers/agent-fixture.js';
import { writeFiles } from '../helpers/temp-dir.js';
import { openTerminal, tmuxAvailable } from '../helpers/tmux.js';
import { scenario } from './harness.js';

// The reply streams one word per 400 ms, so the progress line is on screen while the turn runs.
const SLOW_SCRIPT = `chunkDelayMs: 400
rules:
  - steps:
      - text: "one two three four five six seven eight nine ten"
`;

describe.skipIf(!tmuxAvailable())('auggy test in a real terminal', () => {
  it('shows scenario k of n, the turn and the elapsed time while it runs, then the result in its place', async () => {
    const dir = makeAgentFolder({ engine: 'engine:\n  provider: scripted\n  model: slow\n  script: ./script.yaml\n', files: { 'script.yaml': SLOW_SCRIPT } });
    writeFiles(dir, {
      'tests/a.scenario.yaml': scenario('first slow one', '    - content: "hello"\n    - content: "again"'),
      'tests/b.scenario.yaml': scenario('second slow one', '    - content: "hello"'),
    });
    const terminal = await openTerminal({ command: ['node', AUGGY_BIN, 'test', dir], env: { NO_COLOR: '1' }, width: 120 });
    try {
      await terminal.waitForText(/… scenario 1 of 2 · first slow one · turn 2 of 2 · \d+\.\ds/);
      await terminal.waitForText(/… scenario 2 of 2 · second slow one · turn 1 of 1 · \d+\.\ds/);
      expect(await terminal.waitForExit()).toBe(0);
      const screen = await terminal.screen();
      expect(screen).toMatch(/^PASS {2}first slow one {2}\(/m);
      expect(screen).toMatch(/^PASS {2}second slow one {2}\(/m);
      expect(screen).not.toContain('… scenario');
    } finally {
      await terminal.close();
    }
  });
});
