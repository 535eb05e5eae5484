import { describe, expect, it } from 'vitest';
import type { SlashCommand } from '../../src/kernel/augment.js';
import {
  buildRegistry,
  commandSuggestions,
  findCommand,
  helpLines,
  nearestCommand,
  parseCommandLine,
  runCommand,
  unknownCommandMessage,
} from '../../src/hosts/tui/command-registry.js';

const command = (name: string, extra: Partial<SlashCommand> = {}): SlashCommand => ({
  name,
  summary: `${name} things`,
  run: () => ({ lines: [name] }),
  ...extra,
});
const registry = buildRegistry(
  [command('help'), command('clear'), command('session'), command('exit')],
  [command('ask', { usage: '[text|clear]' }), command('help')],
);

describe('the command registry', () => {
  it('merges the TUI commands with the augments, the first of a name winning', () => {
    expect(registry.commands.map((c) => `${c.source}:${c.name}`)).toEqual(['tui:help', 'tui:clear', 'tui:session', 'tui:exit', 'augment:ask']);
    expect(registry.shadowed).toEqual(['help']);
    expect(findCommand(registry, 'ASK')?.source).toBe('augment');
  });

  it('parses a command line into name and arguments', () => {
    expect(parseCommandLine('/ask  deploy the api ')).toEqual({ name: 'ask', args: 'deploy the api' });
    expect(parseCommandLine('/help')).toEqual({ name: 'help', args: '' });
    expect(parseCommandLine('/')).toEqual({ name: '', args: '' });
    expect(parseCommandLine('hello /help')).toBeUndefined();
  });

  it('suggests commands while the name is typed, not once arguments start', () => {
    expect(commandSuggestions(registry, '/').map((c) => c.name)).toEqual(['ask', 'clear', 'exit', 'help', 'session']);
    expect(commandSuggestions(registry, '/se').map((c) => c.name)).toEqual(['session']);
    expect(commandSuggestions(registry, '/ask ')).toEqual([]);
    expect(commandSuggestions(registry, 'hello')).toEqual([]);
    expect(commandSuggestions(registry, '/zzz')).toEqual([]);
  });

  it('finds the nearest command, ignoring case, however far', () => {
    expect(nearestCommand(registry, 'sesion')).toBe('session');
    expect(nearestCommand(registry, 'EXIT')).toBe('exit');
    expect(nearestCommand(registry, 'zzzzzzzzzz')).toEqual(expect.any(String));
    expect(nearestCommand(buildRegistry([], []), 'help')).toBeUndefined();
  });

  it('an unknown command gets one line naming the nearest', () => {
    const message = unknownCommandMessage(registry, 'hlep');
    expect(message).toBe('unknown command /hlep: did you mean /help? (/help lists them all; nothing was sent)');
    expect(message.split('\n')).toHaveLength(1);
  });

  it('/help has one aligned line per command', () => {
    const lines = helpLines(registry);
    expect(lines.map((line) => line.split(/\s{2,}/))).toEqual([
      ['/help', 'help things'],
      ['/clear', 'clear things'],
      ['/session', 'session things'],
      ['/exit', 'exit things'],
      ['/ask [text|clear]', 'ask things'],
    ]);
    // Every summary starts in the same column.
    expect(new Set(lines.map((line, index) => line.indexOf(registry.commands[index].summary))).size).toBe(1);
  });

  it('a command that throws is reported as an error line', async () => {
    const broken = command('boom', { run: () => Promise.reject(new Error('no board')) });
    expect(await runCommand(broken, '')).toEqual({ lines: ['/boom failed: no board'], isError: true });
  });
});
