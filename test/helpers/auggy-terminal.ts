import { AUGGY_BIN } from './agent-fixture.js';
import { openTerminal, type Terminal } from './tmux.js';

/** The placeholder appears once the TUI reads keys: a fresh prompt, or a reply to an open question. */
export const TUI_READY = /Type a message|Type your reply/;

/** No provider settings leak in from the machine running the tests. */
export const CLEAN_MODEL_ENV = { OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', AUGGY_MODEL: '', AUGGY_BASE_URL: '', AUGGY_API_KEY: '' };

/**
 * `auggy run` in real terminals, each on its own tmux socket; `closeAll` in afterEach ends them.
 * `run` resolves once the TUI is ready for keys.
 */
export function auggyTerminals() {
  let open: Terminal[] = [];
  return {
    async run(dir: string, args: string[] = [], size = { width: 100, height: 30 }): Promise<Terminal> {
      const terminal = await openTerminal({ command: [process.execPath, AUGGY_BIN, 'run', dir, ...args], env: CLEAN_MODEL_ENV, ...size });
      open.push(terminal);
      await terminal.waitForText(TUI_READY);
      return terminal;
    },
    async closeAll(): Promise<void> {
      await Promise.all(open.map((terminal) => terminal.close()));
      open = [];
    },
  };
}

/** Types a line, waits until it shows (keys arrive one by one), then presses Enter. */
export async function sendLine(terminal: Terminal, text: string): Promise<void> {
  await terminal.type(text);
  await terminal.waitForText(text.split('\n')[0]);
  await terminal.press('Enter');
}
