import { describe, expect, it } from 'vitest';
import { nodeCheck } from '../../src/cli/doctor/node-check.js';
import { terminalCheck, type TerminalFacts } from '../../src/cli/doctor/terminal-check.js';

const TERMINAL: TerminalFacts = { stdinTerminal: true, stdoutTerminal: true, term: 'xterm-256color', columns: 120, rows: 40, colours: true, inTmux: false };

describe("doctor's Node check", () => {
  it('fails below engines >= 20, warns that Node 20 is past its end of life, passes Node 24', () => {
    expect(nodeCheck('18.20.0')).toMatchObject({ status: 'fail', message: expect.stringMatching(/older than auggy needs \(>= 20\)/) });
    expect(nodeCheck('20.20.2')).toMatchObject({ status: 'warn', message: expect.stringMatching(/Node 20 is past its end of life/) });
    expect(nodeCheck('24.11.0').status).toBe('ok');
  });
});

describe("doctor's terminal check", () => {
  it('passes a real terminal and says its size', () => {
    expect(terminalCheck(TERMINAL)).toMatchObject({ status: 'ok', message: 'xterm-256color 120×40, colours on: the chat can run here' });
  });

  it('only warns, never fails, where the chat cannot run', () => {
    expect(terminalCheck({ ...TERMINAL, stdoutTerminal: false }).message).toMatch(/^stdout is not a terminal/);
    expect(terminalCheck({ ...TERMINAL, term: 'dumb' }).message).toMatch(/TERM is "dumb"/);
    expect(terminalCheck({ ...TERMINAL, columns: 30, rows: 8 }).message).toMatch(/30×8; the chat wants at least 40×10/);
    expect(terminalCheck({ ...TERMINAL, inTmux: true, tmuxEscapeMs: 500 }).message).toMatch(/escape-time is 500 ms.*set -sg escape-time 10/);
    for (const facts of [{ stdinTerminal: false }, { term: undefined }, { columns: 10 }]) expect(terminalCheck({ ...TERMINAL, ...facts }).status).toBe('warn');
  });
});
