import { afterEach } from 'vitest';
import { AUGGY_BIN } from './agent-fixture.js';
import { openTerminal, type Terminal, type TerminalOptions } from './tmux.js';

/** The placeholder appears once the TUI reads keys: a fresh prompt, or a reply to an open question. */
export const TUI_READY = /Type a message|Type your reply/;

/** No provider settings leak in from the machine running the tests. */
export const CLEAN_MODEL_ENV = { OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', AUGGY_MODEL: '', AUGGY_BASE_URL: '', AUGGY_API_KEY: '' };

export interface ChatTerminalOptions {
  width?: number;
  height?: number;
  /** Where the chat starts (it reads the paths a message mentions from there). */
  cwd?: string;
  /** Added to the clean model settings. */
  env?: Record<string, string | undefined>;
}

/**
 * Real terminals for one test file, each on its own tmux socket, every one closed after each test
 * (the afterEach is registered here, so call this at a file's top level). `run` starts
 * `auggy run` and resolves once the TUI is ready for keys; `open` starts any program, with the
 * same clean model settings and size, and does not wait.
 */
export function auggyTerminals() {
  let open: Terminal[] = [];
  const track = async (options: TerminalOptions): Promise<Terminal> => {
    const terminal = await openTerminal({ width: 100, height: 30, ...options, env: { ...CLEAN_MODEL_ENV, ...options.env } });
    open.push(terminal);
    return terminal;
  };
  afterEach(async () => {
    const closing = open;
    open = [];
    await Promise.all(closing.map((terminal) => terminal.close()));
  });
  return {
    open: track,
    async run(dir: string, args: string[] = [], options: ChatTerminalOptions = {}): Promise<Terminal> {
      const terminal = await track({ command: [process.execPath, AUGGY_BIN, 'run', dir, ...args], ...options });
      await terminal.waitForText(TUI_READY);
      return terminal;
    },
  };
}

/** Types a line, waits until it shows (keys arrive one by one), then presses Enter. */
export async function sendLine(terminal: Terminal, text: string): Promise<void> {
  await terminal.type(text);
  await terminal.waitForText(text.split('\n')[0]);
  await terminal.press('Enter');
}
