import type { CommandOutput, SlashCommand } from '../../kernel/augment.js';

export interface TuiCommandActions {
  helpLines(): string[];
  sessionLines(): string[];
  clear(): Promise<string[]>;
  /** `/compact [what to keep]`: the conversation says what it did on its own stream. */
  compact(keepHint: string): Promise<string[]>;
  /** `/model [provider:model]`: the model in use, or a switch for the rest of the session. */
  model(spec: string): Promise<CommandOutput>;
  exit(): void;
}

export const KEY_HELP = [
  'keys: Enter sends · Alt+Enter, or \\ before Enter, adds a line · ↑↓ history · Tab completes',
  'Esc or Ctrl+C cancels a running turn · Ctrl+C twice, or Ctrl+D on an empty line, quits',
  'during a turn Enter queues the message, sent when the turn ends · ↑ edits the last queued · Esc removes it',
];

/** The TUI's own commands; augments add theirs to the same registry. */
export function tuiCommands(actions: TuiCommandActions): SlashCommand[] {
  return [
    { name: 'help', summary: 'every command with one line, and the keys', duringTurn: true, run: () => ({ lines: [...actions.helpLines(), ...KEY_HELP] }) },
    { name: 'clear', summary: 'start a new conversation in a fresh session', run: async () => ({ lines: await actions.clear() }) },
    {
      name: 'compact',
      summary: 'replace the earlier conversation with a summary now, to free context',
      usage: '[what to keep]',
      run: async (args) => ({ lines: await actions.compact(args) }),
    },
    {
      name: 'model',
      summary: 'the model in use, or switch to another for the rest of this session',
      usage: '[provider:model]',
      run: (args) => actions.model(args),
    },
    { name: 'session', summary: "this session's id and where it is kept", duringTurn: true, run: () => ({ lines: actions.sessionLines() }) },
    {
      name: 'exit',
      summary: 'quit (a running turn is canceled first)',
      duringTurn: true,
      run: () => {
        actions.exit();
        return { lines: [] };
      },
    },
  ];
}
