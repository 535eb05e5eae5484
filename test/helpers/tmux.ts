import { execa } from 'execa';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** True when a tmux binary is on PATH (`.ci/run` installs it). */
export function tmuxAvailable(): boolean {
  try {
    execFileSync('tmux', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export interface TerminalOptions {
  /** The program and its arguments, run directly (no shell). */
  command: string[];
  cwd?: string;
  env?: Record<string, string | undefined>;
  width?: number;
  height?: number;
}

export interface WaitOptions {
  /** Generous: machines under load are slow, and a timeout here is a failure, never a measurement. */
  timeoutMs?: number;
  /** Read wrapped lines joined (`capture-pane -J`), for text that may wrap. */
  joined?: boolean;
}

/**
 * A real terminal: a program running in its own tmux server (a private socket, so tests never
 * touch a person's tmux), driven with `send-keys` and read with `capture-pane`.
 */
export interface Terminal {
  /** Typed literally, character by character as tmux sends them. */
  type(text: string): Promise<void>;
  /** tmux key names: `Enter`, `Escape`, `C-c`, `Up`, `BSpace`, ... */
  press(...keys: string[]): Promise<void>;
  /** Pasted the way a terminal pastes: bracketed when the program asked for it. */
  paste(text: string): Promise<void>;
  /** Bytes written to the program in one piece, as keys pressed together reach it: `\u001b[B\r` is Down and Enter in one read. */
  write(bytes: string): Promise<void>;
  /** `escapes`: with the colour and style sequences (`capture-pane -e`); `scrollback`: every line the pane still holds, not only the visible ones. */
  screen(options?: { joined?: boolean; escapes?: boolean; scrollback?: boolean }): Promise<string>;
  waitForText(text: string | RegExp, options?: WaitOptions): Promise<string>;
  /** Waits until `check` accepts the screen; returns that screen. */
  waitForScreen(check: (screen: string) => boolean, what: string, options?: WaitOptions): Promise<string>;
  /** Waits for the program to end and returns its exit status. */
  waitForExit(options?: WaitOptions): Promise<number>;
  resize(width: number, height: number): Promise<void>;
  close(): Promise<void>;
}

const POLL_MS = 50;
const EXIT_MARK = '[program exited with status ';
const DEFAULT_TIMEOUT_MS = 45_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function quote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

export async function openTerminal(options: TerminalOptions): Promise<Terminal> {
  const socket = `auggy-test-${randomBytes(4).toString('hex')}`;
  const configDir = mkdtempSync(join(tmpdir(), 'auggy-tmux-'));
  const config = join(configDir, 'tmux.conf');
  // No status bar: the program has the whole window.
  writeFileSync(config, 'set -g status off\nset -g history-limit 5000\n');
  const tmux = (...args: string[]) => execa('tmux', ['-L', socket, '-f', config, ...args], { env: { TMUX: '' } });
  const target = 'auggy';
  const env = Object.entries({ TERM: 'xterm-256color', ...options.env }).flatMap(([name, value]) => (value === undefined ? [] : ['-e', `${name}=${value}`]));
  const unset = Object.entries(options.env ?? {})
    .filter(([, value]) => value === undefined)
    .map(([name]) => name);
  const program = [...(unset.length > 0 ? ['env', ...unset.flatMap((name) => ['-u', name])] : []), ...options.command].map(quote).join(' ');
  // The shell stays after the program, to write its exit status where capture-pane reads it.
  const command = `${program}; printf '\\n${EXIT_MARK}%s]\\n' "$?"; exec sleep 86400`;
  await tmux(
    'new-session',
    '-d',
    '-s',
    target,
    '-x',
    String(options.width ?? 100),
    '-y',
    String(options.height ?? 30),
    ...(options.cwd ? ['-c', options.cwd] : []),
    ...env,
    command,
  );

  const screen = async ({ joined = false, escapes = false, scrollback = false } = {}) =>
    (await tmux('capture-pane', '-p', ...(joined ? ['-J'] : []), ...(escapes ? ['-e'] : []), ...(scrollback ? ['-S', '-'] : []), '-t', target)).stdout;
  const waitForScreen = async (check: (screen: string) => boolean, what: string, wait: WaitOptions = {}) => {
    const deadline = Date.now() + (wait.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    let last = '';
    for (;;) {
      last = await screen({ joined: wait.joined });
      if (check(last)) return last;
      if (Date.now() > deadline) throw new Error(`terminal never showed ${what}; the screen was:\n${last}`);
      await sleep(POLL_MS);
    }
  };
  return {
    type: async (text) => void (await tmux('send-keys', '-t', target, '-l', text)),
    press: async (...keys) => void (await tmux('send-keys', '-t', target, ...keys)),
    paste: async (text) => {
      await tmux('set-buffer', '-b', 'paste', text);
      await tmux('paste-buffer', '-p', '-d', '-b', 'paste', '-t', target);
    },
    write: async (bytes) => {
      await tmux('set-buffer', '-b', 'keys', bytes);
      // Without -p there are no paste brackets; -r keeps a newline a newline.
      await tmux('paste-buffer', '-r', '-d', '-b', 'keys', '-t', target);
    },
    screen,
    waitForScreen,
    waitForText: (text, wait) => waitForScreen((s) => (typeof text === 'string' ? s.includes(text) : text.test(s)), JSON.stringify(String(text)), wait),
    waitForExit: async (wait = {}) => {
      const shown = await waitForScreen((s) => s.includes(EXIT_MARK), 'the program exiting', wait);
      return Number(shown.slice(shown.indexOf(EXIT_MARK) + EXIT_MARK.length).split(']')[0]);
    },
    resize: async (width, height) => void (await tmux('resize-window', '-t', target, '-x', String(width), '-y', String(height))),
    close: async () => {
      await tmux('kill-server').catch(() => undefined);
      rmSync(configDir, { recursive: true, force: true });
    },
  };
}
