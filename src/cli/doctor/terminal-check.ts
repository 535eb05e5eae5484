import { execFile } from 'node:child_process';
import { isatty } from 'node:tty';
import { promisify } from 'node:util';
import type { CheckResult } from './check-result.js';

/** Narrower or shorter than this and the chat's header, input and status line crowd the reply out. */
const MIN_COLUMNS = 40;
const MIN_ROWS = 10;
/** tmux holds an Esc this long to see whether a key follows; above it, Esc (cancel a turn) lags. */
const SLOW_ESCAPE_MS = 100;

export interface TerminalFacts {
  stdinTerminal: boolean;
  stdoutTerminal: boolean;
  term?: string;
  columns?: number;
  rows?: number;
  colours: boolean;
  /** Inside tmux: its escape-time, when tmux answered. */
  tmuxEscapeMs?: number;
  inTmux: boolean;
}

async function tmuxEscapeTime(env: NodeJS.ProcessEnv): Promise<number | undefined> {
  if (!env.TMUX) return undefined;
  try {
    const { stdout } = await promisify(execFile)('tmux', ['show-options', '-sv', 'escape-time'], { timeout: 2000 });
    const ms = Number(stdout.trim());
    return Number.isFinite(ms) ? ms : undefined;
  } catch {
    return undefined;
  }
}

/** What the chat would find here; read, never changed. */
export async function terminalFacts(env: NodeJS.ProcessEnv = process.env): Promise<TerminalFacts> {
  const stdoutTerminal = process.stdout.isTTY === true;
  return {
    // isatty asks without creating process.stdin (which would hold the process open).
    stdinTerminal: isatty(0),
    stdoutTerminal,
    term: env.TERM,
    columns: stdoutTerminal ? process.stdout.columns : undefined,
    rows: stdoutTerminal ? process.stdout.rows : undefined,
    colours: !env.NO_COLOR && (!stdoutTerminal || process.stdout.hasColors()),
    tmuxEscapeMs: await tmuxEscapeTime(env),
    inTmux: Boolean(env.TMUX),
  };
}

/**
 * Whether the chat (`auggy run` on a terminal) can run here. Never a failure: --print, serve and
 * test need no terminal, so a CI job's doctor passes without one.
 */
export function terminalCheck(facts: TerminalFacts): CheckResult {
  const { stdinTerminal, stdoutTerminal, term, columns, rows, tmuxEscapeMs } = facts;
  const details = { ...facts };
  const warn = (message: string): CheckResult => ({ name: 'terminal', status: 'warn', message, details });
  if (!stdinTerminal || !stdoutTerminal) {
    const which = !stdinTerminal && !stdoutTerminal ? 'stdin and stdout are' : !stdinTerminal ? 'stdin is' : 'stdout is';
    return warn(`${which} not a terminal, so the chat cannot open here; auggy run --print, serve and test work without one`);
  }
  if (!term || term === 'dumb')
    return warn(`TERM is ${term ? '"dumb"' : 'not set'}: the chat needs a terminal that moves the cursor; set TERM (xterm-256color)`);
  if (columns !== undefined && rows !== undefined && (columns < MIN_COLUMNS || rows < MIN_ROWS)) {
    return warn(`the terminal is ${columns}×${rows}; the chat wants at least ${MIN_COLUMNS}×${MIN_ROWS}`);
  }
  if (tmuxEscapeMs !== undefined && tmuxEscapeMs > SLOW_ESCAPE_MS) {
    return warn(`tmux's escape-time is ${tmuxEscapeMs} ms, so Esc (cancel a turn) waits that long; add "set -sg escape-time 10" to ~/.tmux.conf`);
  }
  const size = columns !== undefined && rows !== undefined ? ` ${columns}×${rows}` : '';
  const where = facts.inTmux ? ' in tmux' : '';
  return {
    name: 'terminal',
    status: 'ok',
    message: `${term}${size}${where}, ${facts.colours ? 'colours on' : 'colours off (NO_COLOR)'}: the chat can run here`,
    details,
  };
}
